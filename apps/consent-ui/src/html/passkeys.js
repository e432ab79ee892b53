// The passkey ceremonies of the hosted pages (docs/strong-authentication.md #20). Served from our
// own origin after @simplewebauthn/browser's bundle (global SimpleWebAuthnBrowser). The server
// checks everything; this only carries options from the server to the authenticator and the
// authenticator's answer back, as an ordinary form submission.
/* global window, document, fetch, URLSearchParams, FormData */
(function () {
  'use strict';
  var webauthn = window.SimpleWebAuthnBrowser;
  if (!webauthn || !webauthn.browserSupportsWebAuthn()) return;

  // POSTs the form's fields (CSRF token, pending authorization) and answers the options JSON.
  function fetchOptions(url, fields) {
    return fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    }).then(function (response) {
      if (!response.ok) throw new Error('options refused: ' + response.status);
      return response.json();
    });
  }

  function submitForm(action, fields) {
    var form = document.createElement('form');
    form.method = 'post';
    form.action = action;
    Object.keys(fields).forEach(function (name) {
      var input = document.createElement('input');
      input.type = 'hidden';
      input.name = name;
      input.value = fields[name];
      form.appendChild(input);
    });
    document.body.appendChild(form);
    form.submit();
  }

  function showError(element, message) {
    var target = document.getElementById(element.getAttribute('data-error'));
    if (target) {
      target.textContent = message;
      target.setAttribute('role', 'alert');
      target.hidden = false;
    }
  }

  function formFields(form) {
    var fields = {};
    new FormData(form).forEach(function (value, name) {
      if (name !== 'password' && name !== 'email') fields[name] = String(value);
    });
    return fields;
  }

  // Sign-in page: the button, and the browser's autofill of passkeys (conditional mediation).
  var signIn = document.getElementById('passkey-sign-in');
  if (signIn) {
    var loginForm = document.getElementById(signIn.getAttribute('data-form'));
    var ceremony = function (autofill) {
      var fields = formFields(loginForm);
      return fetchOptions(signIn.getAttribute('data-options'), fields)
        .then(function (options) {
          return webauthn.startAuthentication({ optionsJSON: options, useBrowserAutofill: autofill });
        })
        .then(function (response) {
          fields.response = JSON.stringify(response);
          submitForm(signIn.getAttribute('data-action'), fields);
        });
    };
    signIn.hidden = false;
    signIn.addEventListener('click', function () {
      ceremony(false).catch(function () {
        showError(signIn, 'No passkey was used. Try again, or sign in with your password.');
      });
    });
    // Autofill (conditional mediation) is asked for once the email field is focused, where the
    // browser offers passkeys, and not again on the page that refused one.
    var email = loginForm.elements.namedItem('email');
    if (email && signIn.getAttribute('data-autofill') === 'on') {
      email.addEventListener(
        'focus',
        function () {
          webauthn.browserSupportsWebAuthnAutofill().then(function (supported) {
            // An aborted or dismissed autofill request is not an error to show.
            if (supported) ceremony(true).catch(function () {});
          });
        },
        { once: true },
      );
    }
  }

  // Step-up page (docs/strong-authentication.md #21): the signed-in user's own passkeys only.
  var stepUp = document.getElementById('passkey-step-up');
  if (stepUp) {
    var stepUpFields = function () {
      return {
        handle: stepUp.getAttribute('data-handle'),
        csrf_token: stepUp.getAttribute('data-csrf-token'),
      };
    };
    stepUp.hidden = false;
    stepUp.addEventListener('click', function () {
      var fields = stepUpFields();
      fetchOptions(stepUp.getAttribute('data-options'), fields)
        .then(function (options) {
          return webauthn.startAuthentication({ optionsJSON: options });
        })
        .then(function (response) {
          fields.response = JSON.stringify(response);
          submitForm(stepUp.getAttribute('data-action'), fields);
        })
        .catch(function () {
          showError(stepUp, 'No passkey was used. Try again.');
        });
    });
  }

  // Account page: a new passkey is created, then the form carries the credential.
  var register = document.getElementById('passkey-register');
  if (register) {
    register.addEventListener('submit', function (event) {
      var response = register.elements.namedItem('response');
      if (response.value !== '') return;
      event.preventDefault();
      fetchOptions(register.getAttribute('data-options'), {
        csrf_token: register.elements.namedItem('csrf_token').value,
      })
        .then(function (options) {
          return webauthn.startRegistration({ optionsJSON: options });
        })
        .then(function (credential) {
          response.value = JSON.stringify(credential);
          register.submit();
        })
        .catch(function () {
          showError(register, 'No passkey was created. Try again.');
        });
    });
  }
})();
