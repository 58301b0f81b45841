import { describe, expect, it } from 'vitest';
import { compileTemplate, matchTemplate, RouteTable } from './route-template.js';

const match = (template: string, path: string) => matchTemplate(compileTemplate(template), path);

describe('route templates', () => {
  it('matches literals case-insensitively and binds parameters as given', () => {
    expect(match('bidders/{id}', '/Bidders/AbC-1')).toEqual({ id: 'AbC-1' });
    expect(match('bidders/{id}', '/bidders')).toBeUndefined();
    expect(match('bidders/{id}', '/bidders/1/notes')).toBeUndefined();
  });

  it('decodes parameters and rejects malformed escapes', () => {
    expect(match('files/{name}', '/files/a%20b')).toEqual({ name: 'a b' });
    expect(match('files/{name}', '/files/%E0%A4%A')).toBeUndefined();
  });

  it('supports optional trailing parameters', () => {
    expect(match('accounts/{id?}', '/accounts')).toEqual({});
    expect(match('accounts/{id?}', '/accounts/7')).toEqual({ id: '7' });
  });

  it('supports catch-all segments, including empty ones', () => {
    expect(match('files/{*rest}', '/files/a/b/c')).toEqual({ rest: 'a/b/c' });
    expect(match('files/{*rest}', '/files')).toEqual({});
    expect(match('{*path}', '/')).toEqual({});
  });

  it('applies constraints', () => {
    expect(match('items/{id:int}', '/items/42')).toEqual({ id: '42' });
    expect(match('items/{id:int}', '/items/x')).toBeUndefined();
    expect(match('items/{id:guid}', '/items/3f2504e0-4f89-11d3-9a0c-0305e82c3301')).toBeDefined();
  });

  it('rejects templates Functions would reject', () => {
    expect(() => compileTemplate('a/{*rest}/b')).toThrow(/catch-all/);
    expect(() => compileTemplate('a/{id?}/b')).toThrow(/optional/);
    expect(() => compileTemplate('a/{id:nope}')).toThrow(/constraint/);
    expect(() => compileTemplate('a/x{id}')).toThrow(/Unsupported/);
  });

  it('prefers literal segments over parameters, and anything over a catch-all', () => {
    const table = new RouteTable([
      { route: '{*path}', name: 'fallback' },
      { route: 'bidders/{id}', name: 'bidder' },
      { route: 'bidders/health', name: 'health' },
      { route: 'bidders/{id:int}', name: 'numbered' },
      { route: 'bidders/{id}/{tab?}', name: 'tabbed' },
    ]);
    const first = (path: string) => table.matchAll(path)[0]?.entry.name;
    expect(first('/bidders/health')).toBe('health');
    expect(first('/bidders/12')).toBe('numbered');
    expect(first('/bidders/abc')).toBe('bidder');
    expect(first('/bidders/abc/notes')).toBe('tabbed');
    expect(first('/elsewhere')).toBe('fallback');
    expect(table.matchAll('/bidders/abc').map((m) => m.entry.name)).toEqual([
      'bidder',
      'tabbed',
      'fallback',
    ]);
  });
});
