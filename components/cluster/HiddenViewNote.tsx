/**
 * Says a derived view is withheld by the viewer's access, and which access (by kind) would show it, so an empty
 * section is never mistaken for "nothing to report". Renders nothing when the view is not hidden.
 */
export function HiddenViewNote({ what, missing }: { what: string; missing: readonly string[] | undefined }) {
  if (!missing) return null;
  return (
    <p className="note" role="note" data-testid="hidden-view">
      {what} not shown: your access does not let you read everything it is built from. Access that would show it:{' '}
      {missing.map((access, i) => (
        <span key={access}>
          {i > 0 ? ', ' : ''}
          <code>{access}</code>
        </span>
      ))}
      .
    </p>
  );
}
