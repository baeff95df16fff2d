import Link from "next/link";

/** The product mark and name; links home. */
export function Brand() {
  return (
    <Link href="/" className="brand">
      <span className="brand-mark" aria-hidden="true">S</span>
      Shipshape
    </Link>
  );
}
