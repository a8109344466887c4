export function MemoryPage() {
  return <div>memory</div>;
}
