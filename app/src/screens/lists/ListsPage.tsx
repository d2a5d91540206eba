// First cut so the app's routes resolve; the full screen follows.
export function ListsPage() {
  return (
    <div className="container">
      <h1>Reading lists</h1>
    </div>
  );
}
