import { strict as assert } from 'node:assert';
import { buildFileFacts } from '../../src/core/codebaseIndex/parsing/fileFacts';
import { isTestPath, roleFactor } from '../../src/core/codebaseIndex/search/fileRoles';
import { questionTerms } from '../../src/core/codebaseIndex/search/questionTerms';

/** "Where is X" means the code: tests rank below it, and are listed only when the question asks for them. */
describe('the index tells tests from the code they test by their paths', () => {
  it("a test folder, a test file, and a test project of its own (gson's test-shrinker, integration-tests, e2etest, a .NET test project)", () => {
    for (const path of [
      'tests/test_utils.py',
      'src/router/routeTree.test.ts',
      'gin/context_test.go',
      'gson/src/test/java/com/google/gson/JsonWriterTest.java',
      'test-shrinker/src/main/java/com/example/Main.java',
      'test-jpms/src/main/java/module-info.java',
      'integration-tests/src/app.ts',
      'src/Newtonsoft.Json.Tests/JsonWriterTests.cs',
      'Serilog.Test/LoggerTests.cs',
      'src/Microsoft.AspNetCore.Routing.UnitTests/RouterTests.cs',
      'Acme.Specs/OrderSpecs.cs',
      'internal/command/e2etest/init_test_helpers.go',
    ])
      assert.equal(isTestPath(path), true, path);
  });

  it('code whose name only contains the word is code (a test runner package, a file named like a folder, a contest)', () => {
    for (const path of [
      'packages/playwright-test/src/index.ts',
      'packages/test-runner/src/index.ts',
      'packages/test-utils.ts',
      'src/latest.ts',
      'src/contest/score.ts',
      'src/testing.go',
    ])
      assert.equal(isTestPath(path), false, path);
  });
});

/** A file's role factor for a question, with the file parsed as the index parses it. */
const factor = async (path: string, text: string, question = 'Where is a payment charged to the card?') =>
  roleFactor(await buildFileFacts({ path, hash: 'h', size: text.length, mtimeMs: 0 }, text), questionTerms(question));

/** A contract (a file of interfaces or annotation types alone) ranks below the code that implements it. */
describe('the index tells a Java or C# contract from the code that implements it', () => {
  const JAVA_CONTRACT = 'package shop;\n\n/** Charges a payment. */\npublic interface Payment {\n  void charge(int cents);\n}\n';

  it('a Java interface or annotation type alone, unless the question names it', async () => {
    assert.equal(await factor('src/Payment.java', JAVA_CONTRACT), 0.6);
    assert.equal(await factor('src/Charged.java', 'package shop;\n\n@Retention(RUNTIME)\npublic @interface Charged {}\n'), 0.6);
    assert.equal(await factor('src/Payment.java', JAVA_CONTRACT, 'Where is a Payment charged to the card?'), 1, 'named: the contract is what is asked for');
  });

  it('named in a question about what happens, a contract still ranks below the code; asked for, it does not', async () => {
    for (const inPassing of [
      'Where does the shop send the refunds of a card back to the bank, using the amounts from Payment?',
      'So, where exactly do refunds of a card go back to the bank with the amounts from Payment?',
      'Does the shop send refunds of a card back to the bank with the amounts from Payment?',
    ])
      assert.equal(await factor('src/Payment.java', JAVA_CONTRACT, inPassing), 0.6, inPassing);
    for (const askedFor of [
      'Where is `Payment` defined?',
      'Which file declares the Payment interface used for card refunds?',
      '`Payment`?',
      'Where does the Payment class live?',
      'Where is the `Payment` that the shop charges cards and sends refunds with?',
      // Passive: read as asking for the thing, as before questions were told apart (questionTerms.ts).
      'Where are the refunds of a card sent back to the bank, using the amounts from Payment?',
    ])
      assert.equal(await factor('src/Payment.java', JAVA_CONTRACT, askedFor), 1, askedFor);
  });

  it('not a Java class, nor an interface with a default method, nor a TypeScript interface', async () => {
    assert.equal(await factor('src/Card.java', 'package shop;\n\npublic class Card {\n  void charge(int cents) {\n    pay(cents);\n  }\n}\n'), 1);
    const withDefault = 'package shop;\n\npublic interface Payment {\n  default void charge(int cents) {\n    log(cents);\n    pay(cents);\n  }\n}\n';
    assert.equal(await factor('src/Payment.java', withDefault), 1);
    assert.equal(await factor('src/payment.ts', 'export interface Payment {\n  charge(cents: number): void;\n}\n'), 1);
  });

  it('a C# interface in a block, a file-scoped or a dotted namespace alike', async () => {
    const contract = 'public interface IPayment\n{\n    void Charge(int cents);\n}';
    for (const text of [
      `namespace Shop.Billing\n{\n${contract}\n}\n`,
      `namespace Shop\n{\n${contract}\n}\n`,
      `namespace Shop.Billing;\n\n${contract}\n`,
      `namespace Shop;\n\n${contract}\n`,
    ])
      assert.equal(await factor('src/IPayment.cs', text), 0.6, text);
    assert.equal(
      await factor('src/Card.cs', 'namespace Shop\n{\npublic class Card\n{\n    public void Charge(int cents)\n    {\n        Pay(cents);\n    }\n}\n}\n'),
      1,
    );
  });
});

/** A TypeScript declaration file or a Python stub holds no code at all, whatever it declares. */
describe('a TypeScript declaration file or a Python stub ranks below the code, as a contract does', () => {
  const DECLARATION = 'export declare function register(plugin: Plugin, options: { version: string }): void;\nexport type Plugin = () => void;\n';
  const STUB = 'def register(plugin: Plugin, version: str) -> None: ...\nclass Plugin: ...\n';

  it('asked what happens, a .d.ts, .d.mts, .d.cts or .pyi file weighs 0.6; the same text as code does not', async () => {
    const question = 'Where is a plugin rejected at registration when it needs another version?';
    for (const path of ['types/plugin.d.ts', 'types/plugin.d.mts', 'types/plugin.d.cts']) assert.equal(await factor(path, DECLARATION, question), 0.6, path);
    assert.equal(await factor('shop/plugins.pyi', STUB, question), 0.6);
    assert.equal(await factor('types/plugin.ts', DECLARATION, question), 1, 'a .ts file may hold code');
    assert.equal(await factor('shop/plugins.py', STUB, question), 1, 'a .py file may hold code');
  });

  it('asked for typings or stubs, it is what is asked for; "declares" in a question about code is not that', async () => {
    for (const question of [
      'Where are the typings for plugin registration?',
      'Which .d.ts file types a plugin registration?',
      'Where is the type definition of a plugin registration?',
      'Where is the stub for plugin registration?',
    ])
      assert.equal(await factor('types/plugin.d.ts', DECLARATION, question), 1, question);
    assert.equal(await factor('shop/plugins.pyi', STUB, 'Which .pyi file has plugin registration?'), 1);
    const code = 'Where is a plugin rejected at registration because it declares that it needs another version?';
    assert.equal(await factor('types/plugin.d.ts', DECLARATION, code), 0.6);
  });

  it('asked for a definition it declares by name, it is what is asked for', async () => {
    assert.equal(await factor('types/plugin.d.ts', DECLARATION, 'Where is the `Plugin` type defined?'), 1);
    assert.equal(await factor('shop/plugins.pyi', STUB, 'Where is `register` declared?'), 1);
  });
});
