import type { ReactNode } from "react";
import "@/components/sets/sets.css";
import "@/components/sets/checker.css";

export default function SetsLayout({ children }: { children: ReactNode }) {
  return children;
}
