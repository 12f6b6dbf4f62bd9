import { strict as assert } from 'node:assert';
import { IndexFixture } from './indexHarness';

/**
 * gson's shape, made small: an annotation whose name and doc say everything the question says, and the class that
 * reads it and does the work, in words of its own.
 */
const FILES = {
  'src/annotations/SerialName.java': [
    'package lib.annotations;',
    '/** The name under which a field is written to JSON, instead of the field name. */',
    'public @interface SerialName {',
    '  /** The JSON property name of the field. */',
    '  String value();',
    '}',
  ].join('\n'),
  'src/bind/ReflectiveAdapter.java': [
    'package lib.bind;',
    '/** Writes the fields of an object to JSON properties by reflection, under their names or those from SerialName. */',
    'public final class ReflectiveAdapter {',
    '  /** Writes each field of the object to its JSON property. */',
    '  void writeFields(Object value, JsonWriter out) {}',
    '  /** The JSON properties of an object, found by reflection over its fields. */',
    '  java.util.Map<String, Object> propertiesByReflection(Object value) { return null; }',
    '  /** The property name of a field: the one from SerialName, else the field name. */',
    '  String propertyName(java.lang.reflect.Field field) {',
    '    SerialName annotation = field.getAnnotation(SerialName.class);',
    '    return annotation == null ? field.getName() : annotation.value();',
    '  }',
    '}',
  ].join('\n'),
  'src/Json.java': 'package lib;\n/** Entry point. */\npublic final class Json {\n  public String toJson(Object value) { return ""; }\n}\n',
};

describe('code index: files that only declare', () => {
  let fx: IndexFixture;
  beforeEach(() => (fx = new IndexFixture(FILES)));
  afterEach(() => fx.close());

  it('rank below the code that does the work, unless the question asks where something is defined', async () => {
    const index = await fx.open();
    await index.update();
    const paths = async (question: string) => (await index.searchCode(question, { limit: 3, withLines: false })).map((hit) => hit.path);
    const doing = await paths('Where are fields written to JSON properties by reflection, using the names from @SerialName?');
    assert.equal(doing[0], 'src/bind/ReflectiveAdapter.java', JSON.stringify(doing));
    for (const question of ['Where is the SerialName annotation defined?', 'Which interface names the JSON property of a field?']) {
      const declaring = await paths(question);
      assert.equal(declaring[0], 'src/annotations/SerialName.java', `${question}: ${JSON.stringify(declaring)}`);
    }
  });
});
