import { LoadingBlock } from "@/components/ui/spinner";

/** Shown inside the app frame while a page's server data is on its way. */
export default function AppLoading() {
  return <LoadingBlock label="Loading…" />;
}
