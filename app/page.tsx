export default function FleetPage() {
  return (
    <main>
      <h1>Update Health</h1>
    </main>
  );
}
