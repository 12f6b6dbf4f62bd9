import { strict as assert } from 'node:assert';
import { questionTerms } from '../../src/core/codebaseIndex/search/questionTerms';

/** Whether a question asks what happens or where a named thing is: a contract it names ranks below the code only in the first case (fileRoles.ts). */
describe('a question that names a definition asks either for it or for what happens around it', () => {
  it('asks what happens: something does what it says, in more than a few words of its own', () => {
    for (const question of [
      "Where does Gson turn an object's fields into JSON properties by reflection, using the names from @SerializedName?",
      'How do the rows of a `Table` get sorted before they are inserted?',
      '> So, where in the code does it turn fields into JSON properties with @SerializedName?',
      "I'm lost. Which file does the sorting of a `Table`'s rows before they are inserted?",
    ])
      assert.equal(questionTerms(question).asksWhatHappens, true, question);
  });

  it('asks for the named thing: a word that asks for a definition, few words, no verb something does, or another language', () => {
    for (const question of [
      'Where is the `JsonReader` class defined?',
      'Which file declares the `Payment` interface used for card refunds and chargebacks?',
      'Where does `per_match_one_line` get set on the printer?',
      "Where does Gson's `TYPE_ADAPTER_FACTORY` live?",
      "Where doesn't `Table` sort?",
      'Where does the 4xx `Table` go?',
      "Where is the `FieldNamingStrategy` that maps a field's name to a JSON property name?",
      'Wo ist die Schnittstelle `Payment`?',
    ])
      assert.equal(questionTerms(question).asksWhatHappens, false, question);
  });
});
