/** The text file of backup codes a person downloads. */
export function backupCodesFile(email: string, codes: string[]): string {
  return [
    'Lotwise backup codes',
    `For: ${email}`,
    `Created: ${new Date().toLocaleString()}`,
    '',
    'Each code signs you in once when you cannot use your verification method.',
    'Keep them somewhere safe. Generating new codes makes these stop working.',
    '',
    ...codes,
    '',
  ].join('\n');
}
