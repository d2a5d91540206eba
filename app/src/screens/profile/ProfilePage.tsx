// First cut so the app's routes resolve; the full screen follows.
export function ProfilePage() {
  return (
    <div className="container">
      <h1>Profile</h1>
    </div>
  );
}
