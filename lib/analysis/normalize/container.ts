/**
 * ISO 6346 container numbers (owner code of three letters, category U/J/Z,
 * six-digit serial, check digit) and seal numbers.
 */
import { allMatches } from "./matches";

/** Letter values of ISO 6346: A=10 upwards, skipping multiples of 11. */
const LETTER_VALUES = new Map<string, number>();
{
  let value = 10;
  for (const letter of "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
    if (value % 11 === 0) value++;
    LETTER_VALUES.set(letter, value++);
  }
}

/** "MSCU 123456-7", "MSCU1234567", "TIIU-603220-5", "KSPU 661022 (3)". */
const CONTAINER_PATTERN = /(?<![A-Z0-9])([A-Z]{3}[UJZ])[\s\-.]?(\d{6})[\s\-.]?\(?(\d)\)?(?![0-9])/g;

/** The ISO 6346 check digit of the first ten characters, or undefined when they are malformed. */
export function containerCheckDigit(firstTen: string): number | undefined {
  if (!/^[A-Z]{4}\d{6}$/.test(firstTen)) return undefined;
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const ch = firstTen[i]!;
    const value = i < 4 ? LETTER_VALUES.get(ch)! : Number(ch);
    sum += value * 2 ** i;
  }
  return (sum % 11) % 10;
}

/** True for an eleven-character container number whose check digit is right. */
export function isValidContainerNumber(compact: string): boolean {
  return /^[A-Z]{3}[UJZ]\d{7}$/.test(compact) && containerCheckDigit(compact.slice(0, 10)) === Number(compact[10]);
}

export interface ContainerMatch {
  number: string;
  index: number;
  length: number;
}

/** Every valid container number in `text` as "MSCU1234567", left to right. Invalid check digits are skipped. */
export function findContainerNumbers(text: string): ContainerMatch[] {
  const found: ContainerMatch[] = [];
  for (const m of allMatches(CONTAINER_PATTERN, text.toUpperCase())) {
    const number = `${m[1]}${m[2]}${m[3]}`;
    if (isValidContainerNumber(number)) found.push({ number, index: m.index, length: m[0].length });
  }
  return found;
}

/** A container number in compact form when valid, else undefined. */
export function normalizeContainerNumber(text: string): string | undefined {
  return findContainerNumbers(text)[0]?.number;
}

/** Seal numbers as printed in compact upper case (spaces dropped: "ML 123 456" → "ML123456"). */
export function normalizeSealNumber(text: string): string | undefined {
  const compact = text.toUpperCase().replace(/\s+/g, "").replace(/^[#:.-]+|[.,;:]+$/g, "");
  return /\d/.test(compact) && compact.length >= 4 ? compact : undefined;
}
