import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import {
  HEAD_BYTES,
  judgeZip,
  MAX_WORKBOOK_TEXT_BYTES,
  recogniseFile,
  recogniseHead,
  workbookTextProblem,
} from './content-check.js';

/** The whole check, as the service runs it on a stored file. */
const check = (bytes: Buffer) =>
  recogniseFile(bytes.subarray(0, HEAD_BYTES), bytes.length, (offset, length) =>
    Promise.resolve(bytes.subarray(offset, offset + length)),
  );

const zipOf = async (files: Record<string, string | Buffer>) => {
  const zip = new JSZip();
  for (const [name, content] of Object.entries(files)) zip.file(name, content);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
};

/** A compound file: header, then one directory sector holding these entries. */
function oleOf(entries: { name: string; type: number; clsid?: Buffer }[]): Buffer {
  const header = Buffer.alloc(512);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header);
  header.writeUInt16LE(9, 30); // 512-byte sectors
  header.writeUInt32LE(0, 48); // the directory starts at sector 0
  const directory = Buffer.alloc(512);
  entries.forEach((entry, index) => {
    const at = index * 128;
    const name = Buffer.from(`${entry.name}\0`, 'utf16le');
    name.copy(directory, at);
    directory.writeUInt16LE(name.length, at + 64);
    directory[at + 66] = entry.type;
    entry.clsid?.copy(directory, at + 80);
  });
  return Buffer.concat([header, directory]);
}

describe('recogniseHead', () => {
  it.each([
    ['name,email\nAda,ada@example.com\nBo,bo@example.com\n', 'csv'],
    ['\uFEFFlot;title;estimate\n1;Clock;100\n', 'csv'],
    ['title,estimate,condition\nTeapot,"1,250.00",Good\nChair,300,Fair\n', 'csv'],
    ['[{"name":"Ada"}]', 'json'],
    ['  {"bidders": []}', 'json'],
    ['<?xml version="1.0"?><lots/>', 'xml'],
    ['<catalogue><lot/></catalogue>', 'xml'],
    ['Notes from the spring sale.\nNothing else to say.\n', 'text'],
    ['-- MySQL dump 10.13\n--\nCREATE TABLE lots (id int);\n', 'sql'],
    ['CREATE TABLE bidders (id INTEGER PRIMARY KEY);\nINSERT INTO bidders VALUES (1);', 'sql'],
    ['MZ Auctions,Boston\nRow,2\n', 'csv'],
  ])('reads %j as %s', (text, format) => {
    expect(recogniseHead(Buffer.from(text, 'utf8'))).toEqual({ ok: true, format });
  });

  it('recognises binary formats by their signatures', () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const jpeg = Buffer.from('ffd8ffe000104a464946', 'hex');
    const sqlite = Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(84)]);
    expect(recogniseHead(png)).toEqual({ ok: true, format: 'png' });
    expect(recogniseHead(jpeg)).toEqual({ ok: true, format: 'jpeg' });
    expect(recogniseHead(Buffer.from('%PDF-1.7\n%\xe2\xe3', 'latin1'))).toEqual({
      ok: true,
      format: 'pdf',
    });
    expect(recogniseHead(sqlite)).toEqual({ ok: true, format: 'sqlite' });
    expect(recogniseHead(Buffer.from('PGDMP\x01\x0e\x00', 'latin1'))).toEqual({
      ok: true,
      format: 'sql',
    });
  });

  it('reads UTF-16 text with its byte order mark', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a,b\n1,2\n', 'utf16le')]);
    expect(recogniseHead(utf16)).toEqual({ ok: true, format: 'csv' });
  });

  it.each([
    [
      Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(56)]),
      'is a Windows executable',
    ],
    [Buffer.from('7f454c4602010100', 'hex'), 'is a Linux executable (ELF)'],
    [Buffer.from('cffaedfe07000001', 'hex'), 'is a macOS executable (Mach-O)'],
    [
      Buffer.from('cafebabe00000034', 'hex'),
      'is a program (a Java class or a macOS universal binary)',
    ],
    [Buffer.from('4c0000000114020000000000c0000000', 'hex'), 'is a Windows shortcut (.lnk)'],
    [Buffer.from('#!/bin/sh\nrm -rf /\n'), 'is a script (it starts with #!)'],
    [Buffer.from('\uFEFF#!/usr/bin/env python\n'), 'is a script (it starts with #!)'],
  ])('refuses a program whatever its name (%#)', (bytes, reason) => {
    expect(recogniseHead(bytes)).toEqual({ ok: false, reason });
  });

  it('refuses what it does not know, and empty files', () => {
    expect(recogniseHead(Buffer.from('1f8b0800000000000003', 'hex'))).toEqual({
      ok: false,
      reason: 'is not one of the accepted formats',
    });
    expect(recogniseHead(Buffer.from('<!DOCTYPE html><html></html>'))).toEqual({
      ok: false,
      reason: 'is not one of the accepted formats',
    });
    expect(recogniseHead(Buffer.alloc(0))).toEqual({ ok: false, reason: 'is empty' });
  });

  it('leaves ZIP and OLE files to their structure', () => {
    expect(recogniseHead(Buffer.from('504b0304', 'hex'))).toEqual({
      ok: 'structure',
      container: 'zip',
    });
    expect(recogniseHead(Buffer.from('d0cf11e0a1b11ae1', 'hex'))).toEqual({
      ok: 'structure',
      container: 'ole',
    });
  });
});

describe('recogniseFile: archives', () => {
  it('tells a real workbook, a Word document and a plain ZIP apart', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Bidders').addRow(['name', 'email']);
    const xlsx = Buffer.from(await workbook.xlsx.writeBuffer());
    expect(await check(xlsx)).toEqual({ ok: true, format: 'xlsx' });

    const docx = await zipOf({
      '[Content_Types].xml': '<Types/>',
      'word/document.xml': '<w:document/>',
    });
    expect(await check(docx)).toEqual({ ok: true, format: 'docx' });

    const plain = await zipOf({ 'bidders.csv': 'name\nAda\n', 'photos/1.png': 'x' });
    expect(await check(plain)).toEqual({ ok: true, format: 'zip' });
  });

  it('refuses highly compressed content as a zip bomb', async () => {
    const bomb = await zipOf({ 'zeros.csv': Buffer.alloc(20 * 1024 * 1024) });
    const verdict = await check(bomb);
    expect(verdict.ok).toBe(false);
    expect(!verdict.ok && verdict.reason).toMatch(
      /^is a zip bomb: zeros\.csv unpacks to \d+ times/,
    );
  });

  it('refuses an archive whose directory declares more than 1 GB', async () => {
    const zip = await zipOf({ 'a.csv': 'x,y\n1,2\n' });
    // The central directory's uncompressed size of the one entry, set to almost 4 GB.
    const central = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    zip.writeUInt32LE(0xfffffff0, central + 24);
    const verdict = await check(zip);
    expect(!verdict.ok && verdict.reason).toMatch(/^is a zip bomb: it unpacks to 4096 MB/);
  });

  it('refuses nested archives, programs inside and damaged archives', async () => {
    const inner = await zipOf({ 'a.csv': 'x\n' });
    expect(await check(await zipOf({ 'inner.zip': inner }))).toEqual({
      ok: false,
      reason: 'holds another archive (inner.zip); upload archives one level deep',
    });
    expect(await check(await zipOf({ 'setup.exe': 'MZ' }))).toEqual({
      ok: false,
      reason: 'holds a program (setup.exe)',
    });
    const cut = (await zipOf({ 'a.csv': 'x\n' })).subarray(0, 40);
    expect(await check(cut)).toEqual({ ok: false, reason: 'is a damaged ZIP archive' });
  });

  it('judges many entries and totals from the directory alone', () => {
    const entries = Array.from({ length: 10_001 }, (_, index) => ({
      name: `${index}.csv`,
      compressed: 1,
      uncompressed: 1,
    }));
    expect(judgeZip(entries)).toEqual({
      ok: false,
      reason: 'is an archive of more than 10000 files',
    });
    expect(judgeZip([{ name: 'small.csv', compressed: 10, uncompressed: 5000 }])).toEqual({
      ok: true,
      format: 'zip',
    });
  });
});

describe('recogniseFile: legacy Office and installers', () => {
  it('reads the directory: Excel, Word, or a Windows installer', async () => {
    const root = { name: 'Root Entry', type: 5 };
    expect(await check(oleOf([root, { name: 'Workbook', type: 2 }]))).toEqual({
      ok: true,
      format: 'xls',
    });
    expect(await check(oleOf([root, { name: 'WordDocument', type: 2 }]))).toEqual({
      ok: true,
      format: 'doc',
    });
    const msi = Buffer.from('84100c0000000000c000000000000046', 'hex');
    expect(
      await check(
        oleOf([
          { ...root, clsid: msi },
          { name: 'x', type: 2 },
        ]),
      ),
    ).toEqual({
      ok: false,
      reason: 'is a Windows installer (.msi)',
    });
    expect(await check(oleOf([root, { name: 'Other', type: 2 }]))).toEqual({
      ok: false,
      reason: 'is not one of the accepted formats',
    });
  });
});

describe('workbookTextProblem', () => {
  const problemOf = (bytes: Buffer) =>
    workbookTextProblem(bytes.length, (offset, length) =>
      Promise.resolve(bytes.subarray(offset, offset + length)),
    );

  it('passes a workbook whose shared text fits, and one with none', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Bidders').addRows([
      ['First Name', 'Email'],
      ['Ada', 'ada@example.com'],
    ]);
    expect(await problemOf(Buffer.from(await workbook.xlsx.writeBuffer()))).toBeNull();
    expect(await problemOf(await zipOf({ 'xl/worksheets/sheet1.xml': '<worksheet/>' }))).toBeNull();
  });

  it('names a workbook with more shared text than is read in memory, by its size', async () => {
    // 17,000,011 bytes: just over 16 MB.
    const text = `<sst>${'<si><t>a</t></si>'.repeat(1_000_000)}</sst>`;
    expect(text.length).toBeGreaterThan(MAX_WORKBOOK_TEXT_BYTES);
    const bytes = await zipOf({ 'xl/sharedStrings.xml': text, 'xl/workbook.xml': '<workbook/>' });
    expect(await problemOf(bytes)).toBe(
      `holds 17 MB of text, more than a workbook may (16 MB) to be read here; save it as CSV and upload that`,
    );
  });
});
