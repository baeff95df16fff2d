import { diffWords } from "diff";

/** `value` against `reference`, word by word: words only in the reference struck through, words only here marked. */
export function ValueDiff({ reference, value }: { reference: string; value: string }) {
  const parts = diffWords(reference, value, { ignoreCase: true });
  return (
    <span className="diff">
      {parts.map((part, i) =>
        part.added ? (
          <ins key={i} className="diff-added">{part.value}</ins>
        ) : part.removed ? (
          <del key={i} className="diff-removed">{part.value}</del>
        ) : (
          <span key={i}>{part.value}</span>
        ),
      )}
    </span>
  );
}
