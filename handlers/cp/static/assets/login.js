// login.js: the sign-in form. The API sets the HttpOnly session cookie; the token in the response
// body is deliberately not kept anywhere script could read it back.
import { api, describe, takeNext } from './api.js';

const form = document.getElementById('login');
const error = document.getElementById('login-error');
const button = form.querySelector('button[type="submit"]');

if (document.querySelector('meta[name="cms-secure"]')?.getAttribute('content') === 'true' && location.protocol === 'http:') {
  document.getElementById('insecure').hidden = false;
}

function fail(text) {
  error.textContent = text;
  error.hidden = false;
}

form.addEventListener('submit', async (ev) => {
  ev.preventDefault();
  error.hidden = true;
  const email = form.email.value.trim();
  const password = form.password.value;
  if (!email || !password) {
    fail('Enter your email and password.');
    return;
  }
  button.disabled = true;
  try {
    await api('POST', '/auth/login', { json: { email, password }, login401: false });
    location.assign(takeNext());
  } catch (err) {
    fail(describe(err));
    form.password.select();
  } finally {
    button.disabled = false;
  }
});

