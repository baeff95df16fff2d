import type { ReactNode } from "react";
import "@/components/sets/sets.css";

export default function SetsLayout({ children }: { children: ReactNode }) {
  return children;
}
