/** The HTPasswd provider's login form, as the OAuth server renders it at `/login`. */

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The form: username, password, the CSRF value and where to go after login. */
export function loginPage(options: { then: string; csrf: string; error?: string; username?: string }): string {
  const error = options.error ? `<p class="error" role="alert">${escape(options.error)}</p>` : '';
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Log in · OpenShift</title><link rel="icon" href="data:,">
<style>body{font-family:sans-serif;max-width:24rem;margin:4rem auto}label{display:block;margin-top:1rem}input{width:100%;padding:.4rem}.error{color:#a30000}button{margin-top:1.5rem;padding:.5rem 1.5rem}</style>
</head><body>
<h1>Log in to your account</h1>
${error}
<form action="/login" method="POST">
<input type="hidden" name="then" value="${escape(options.then)}">
<input type="hidden" name="csrf" value="${escape(options.csrf)}">
<label for="inputUsername">Username</label>
<input type="text" id="inputUsername" name="username" autocomplete="username" value="${escape(options.username ?? '')}" required autofocus>
<label for="inputPassword">Password</label>
<input type="password" id="inputPassword" name="password" autocomplete="current-password" required>
<button type="submit">Log in</button>
</form>
</body></html>`;
}
