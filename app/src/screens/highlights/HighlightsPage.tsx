// First cut so the app's routes resolve; the full screen follows.
export function HighlightsPage() {
  return (
    <div className="container">
      <h1>Highlights</h1>
    </div>
  );
}
