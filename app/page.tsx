import Link from "next/link";

export default function HomePage() {
  return (
    <main className="page">
      <h1>Shipshape</h1>
      <p className="lead">
        Reads the trade documents presented under a letter of credit. Send one file — often a single PDF holding a bill
        of lading, an invoice, a packing list and certificates — and get back each document it contains, its type and
        its key fields.
      </p>
      <ul className="links">
        <li>
          <Link href="/docs">API reference</Link> — how to call <code>POST /v1/documents/analyze</code>, with curl
          examples.
        </li>
        <li>
          <a href="/v1/openapi.json">OpenAPI 3.1 description</a> — for code generators and API tools.
        </li>
      </ul>
    </main>
  );
}
