import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { namedSchema } from '../../kernel/http/named-schema.js';
import { componentSchemas, withComponentRefs } from '../../plugins/openapi/component-refs.js';

describe('named schemas (OpenAPI components)', () => {
  const Point = namedSchema('TestPoint', Type.Object({ x: Type.Number(), y: Type.Number() }));

  it('refuses a name that is not PascalCase, and one name for two schemas', () => {
    assert.throws(() => namedSchema('test-point', Type.Object({})), /PascalCase/);
    assert.throws(() => namedSchema('TestPoint', Type.Object({ x: Type.Number() })), /two schemas/);
    assert.equal(namedSchema('TestPoint', Point), Point);
  });

  it('leaves validation alone: the naming keyword is not a constraint', () => {
    assert.equal(Compile(Point).Check({ x: 1, y: 2 }), true);
    assert.equal(Compile(Point).Check({ x: 1 }), false);
  });

  it('turns every use, optional ones too, into a $ref, and keeps a variant inline without the keyword', () => {
    const Shape = Type.Object({
      at: Point,
      to: Type.Optional(Point),
      path: Type.Array(Point),
      described: Type.Object({ ...Point.properties }),
      variant: { ...Point, description: 'another meaning' },
    });
    const out = withComponentRefs(Shape) as { properties: Record<string, any> };
    const ref = { $ref: '#/components/schemas/TestPoint' };
    assert.deepEqual(out.properties.at, ref);
    assert.deepEqual(out.properties.to, ref);
    assert.deepEqual(out.properties.path.items, ref);
    assert.equal(out.properties.described.$ref, undefined);
    assert.equal(out.properties.variant.$ref, undefined);
    assert.equal(out.properties.variant.description, 'another meaning');
    assert.ok(!JSON.stringify(out).includes('x-schema-name'));
    assert.deepEqual(withComponentRefs(Shape, { refs: false }), JSON.parse(JSON.stringify(Shape).replaceAll(',"x-schema-name":"TestPoint"', '')));
  });

  it('lists each named schema as a component, itself inline', () => {
    const components = componentSchemas() as Record<string, any>;
    assert.deepEqual(components.TestPoint, { type: 'object', required: ['x', 'y'], properties: { x: { type: 'number' }, y: { type: 'number' } } });
  });
});
