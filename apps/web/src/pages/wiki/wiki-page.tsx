export function WikiPage({ path }: { path: string }) {
  return <div>wiki {path}</div>;
}
