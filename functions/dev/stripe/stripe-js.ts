/**
 * A stand-in for Stripe.js (`/v3/`) and its card element (`/elements/card`). The page gets
 * `window.Stripe(publishableKey)` with `elements().create('card')` and `confirmCardSetup` /
 * `confirmCardPayment`. The card inputs live in an iframe served by this server: card data goes
 * from the iframe straight to this server's client-side confirm endpoints, and the page only
 * ever sees events and results (postMessage), as with the real Stripe.js.
 */

const MESSAGE = 'lotwise-stripe';

export function stripeJs(origin: string): string {
  return `/* Local Stripe.js stand-in: ${origin} */
(function () {
  'use strict';
  var ORIGIN = ${JSON.stringify(origin)};
  var TAG = ${JSON.stringify(MESSAGE)};
  var elementsById = {};
  var pending = {};
  var counter = 0;

  window.addEventListener('message', function (event) {
    if (event.origin !== ORIGIN || !event.data || event.data.source !== TAG) return;
    var data = event.data;
    if (data.type === 'result') {
      var resolve = pending[data.requestId];
      delete pending[data.requestId];
      if (resolve) resolve(data);
      return;
    }
    var element = elementsById[data.elementId];
    if (!element) return;
    if (data.type === 'resize' && element._frame) element._frame.style.height = data.height + 'px';
    if (data.type === 'change') element._state = data.payload;
    if (data.type === 'ready') element._ready = true;
    (element._handlers[data.type] || []).slice().forEach(function (handler) {
      handler(data.type === 'change' ? data.payload : { elementType: 'card' });
    });
  });

  function post(element, message) {
    if (!element._frame || !element._frame.contentWindow) return false;
    message.source = TAG;
    element._frame.contentWindow.postMessage(message, ORIGIN);
    return true;
  }

  function CardElement(options) {
    this._id = 'card-' + (++counter) + '-' + Math.random().toString(36).slice(2);
    this._options = options || {};
    this._handlers = {};
    this._frame = null;
    this._state = { elementType: 'card', complete: false, empty: true };
    elementsById[this._id] = this;
  }
  CardElement.prototype.mount = function (target) {
    var container = typeof target === 'string' ? document.querySelector(target) : target;
    if (!container) throw new Error('Stripe: the element to mount the card element into was not found.');
    if (this._frame) this.unmount();
    var frame = document.createElement('iframe');
    frame.title = 'Secure card payment input frame';
    frame.name = this._id;
    frame.setAttribute('frameborder', '0');
    frame.setAttribute('allowtransparency', 'true');
    frame.setAttribute('scrolling', 'no');
    frame.style.cssText = 'border:none;width:100%;height:40px;display:block;background:transparent;color-scheme:normal;overflow:hidden;';
    frame.src = ORIGIN + '/elements/card?element=' + encodeURIComponent(this._id) +
      '&origin=' + encodeURIComponent(window.location.origin) +
      '#' + encodeURIComponent(JSON.stringify(this._options));
    container.appendChild(frame);
    this._frame = frame;
  };
  CardElement.prototype.on = function (type, handler) {
    (this._handlers[type] = this._handlers[type] || []).push(handler);
    return this;
  };
  CardElement.prototype.off = function (type, handler) {
    this._handlers[type] = (this._handlers[type] || []).filter(function (h) { return h !== handler; });
    return this;
  };
  CardElement.prototype.update = function (options) {
    for (var key in options) this._options[key] = options[key];
    post(this, { type: 'update', options: this._options });
  };
  CardElement.prototype.focus = function () { post(this, { type: 'focus' }); };
  CardElement.prototype.blur = function () { post(this, { type: 'blur' }); };
  CardElement.prototype.clear = function () { post(this, { type: 'clear' }); };
  CardElement.prototype.unmount = function () {
    if (this._frame && this._frame.parentNode) this._frame.parentNode.removeChild(this._frame);
    this._frame = null;
  };
  CardElement.prototype.destroy = function () {
    this.unmount();
    delete elementsById[this._id];
    this._handlers = {};
  };

  function Elements() { this._card = null; }
  Elements.prototype.create = function (type, options) {
    if (type !== 'card' && type !== 'cardNumber') throw new Error('Stripe (local): only the "card" element is available.');
    if (this._card) throw new Error('Can only create one Element of type card.');
    this._card = new CardElement(options);
    return this._card;
  };
  Elements.prototype.getElement = function (type) { return type === 'card' ? this._card : null; };

  function errorResult(message, code) {
    return { error: { type: 'validation_error', code: code || 'incomplete', message: message } };
  }

  function Stripe(key) {
    if (!(this instanceof Stripe)) return new Stripe(key);
    if (typeof key !== 'string' || key.indexOf('pk_') !== 0) {
      throw new Error('Invalid value for Stripe(): apiKey should be a publishable key (pk_...). You specified: ' + key + '.');
    }
    this._key = key;
  }
  Stripe.prototype.elements = function () { return new Elements(); };

  Stripe.prototype._confirm = function (kind, resultKey, clientSecret, data) {
    var key = this._key;
    var intentId = String(clientSecret || '').split('_secret_')[0];
    var method = data && data.payment_method;
    if (!intentId) return Promise.resolve(errorResult('Invalid client secret.', 'invalid_client_secret'));
    // A saved payment method needs no card data: the page may call this server itself.
    if (typeof method === 'string' || !method) {
      var body = new URLSearchParams({ key: key, client_secret: clientSecret });
      if (method) body.set('payment_method', method);
      return fetch(ORIGIN + '/v1/' + kind + '/' + intentId + '/confirm', { method: 'POST', body: body })
        .then(function (response) { return response.json(); })
        .then(function (json) {
          if (json.error) return { error: json.error };
          var out = {}; out[resultKey] = json; return out;
        });
    }
    var element = method.card;
    if (!element || !elementsById[element._id]) return Promise.resolve(errorResult('Please provide a mounted card Element.', 'missing_element'));
    var requestId = 'req-' + (++counter);
    return new Promise(function (resolve) {
      pending[requestId] = function (message) {
        if (message.error) resolve({ error: message.error });
        else { var out = {}; out[resultKey] = message.result; resolve(out); }
      };
      var sent = post(element, {
        type: 'confirm', requestId: requestId, kind: kind, intentId: intentId,
        clientSecret: clientSecret, key: key, billingDetails: method.billing_details || null,
      });
      if (!sent) { delete pending[requestId]; resolve(errorResult('The card Element is not mounted.', 'missing_element')); }
    });
  };
  Stripe.prototype.confirmCardSetup = function (clientSecret, data) {
    return this._confirm('setup_intents', 'setupIntent', clientSecret, data);
  };
  Stripe.prototype.confirmCardPayment = function (clientSecret, data) {
    return this._confirm('payment_intents', 'paymentIntent', clientSecret, data);
  };

  window.Stripe = Stripe;
})();
`;
}

export function cardFrame(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Card details</title>
<style id="base">
  html, body { margin: 0; padding: 0; background: transparent; overflow: hidden; }
  form { display: flex; gap: .5em; align-items: center; margin: 0; padding: 8px 0; }
  .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  input { border: none; outline: none; background: transparent; padding: 2px 0; margin: 0; min-width: 0;
    font: inherit; color: inherit; }
  #number { flex: 1 1 auto; }
  #expiry { flex: 0 0 5.5em; }
  #cvc { flex: 0 0 3.5em; }
</style>
<style id="custom"></style>
</head><body>
<form novalidate autocomplete="on">
  <label class="sr" for="number">Card number</label>
  <input id="number" name="cardnumber" inputmode="numeric" autocomplete="cc-number" placeholder="Card number" aria-label="Card number">
  <label class="sr" for="expiry">Expiration date MM / YY</label>
  <input id="expiry" name="exp-date" inputmode="numeric" autocomplete="cc-exp" placeholder="MM / YY" aria-label="Expiration date MM / YY">
  <label class="sr" for="cvc">CVC</label>
  <input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="CVC" aria-label="CVC">
</form>
<script>
(function () {
  'use strict';
  var TAG = ${JSON.stringify(MESSAGE)};
  var query = new URLSearchParams(location.search);
  var elementId = query.get('element');
  var parentOrigin = query.get('origin') || '*';
  var options = {};
  try { options = JSON.parse(decodeURIComponent(location.hash.slice(1)) || '{}'); } catch (e) { options = {}; }
  var number = document.getElementById('number');
  var expiry = document.getElementById('expiry');
  var cvc = document.getElementById('cvc');
  var inputs = [number, expiry, cvc];

  function send(type, extra) {
    var message = { source: TAG, elementId: elementId, type: type };
    for (var key in extra || {}) message[key] = extra[key];
    parent.postMessage(message, parentOrigin);
  }

  function applyStyle() {
    var style = options.style || {};
    var base = style.base || {};
    var invalid = style.invalid || {};
    var css = 'body {';
    if (base.color) css += 'color:' + base.color + ';';
    if (base.fontFamily) css += 'font-family:' + base.fontFamily + ';';
    css += 'font-size:' + (base.fontSize || '16px') + ';';
    if (base.fontWeight) css += 'font-weight:' + base.fontWeight + ';';
    if (base.lineHeight) css += 'line-height:' + base.lineHeight + ';';
    css += '}';
    if (base['::placeholder'] && base['::placeholder'].color) css += 'input::placeholder{color:' + base['::placeholder'].color + ';opacity:1;}';
    css += 'input.invalid{color:' + (invalid.color || '#df1b41') + ';}';
    document.getElementById('custom').textContent = css.replace(/[<>]/g, '');
    if (options.disabled !== undefined) inputs.forEach(function (input) { input.disabled = !!options.disabled; });
    send('resize', { height: Math.ceil(document.querySelector('form').getBoundingClientRect().height) });
  }

  function digits(value) { return value.replace(/\\D/g, ''); }
  function luhn(value) {
    var sum = 0;
    for (var i = 0; i < value.length; i++) {
      var d = Number(value[value.length - 1 - i]);
      if (i % 2 === 1) { d *= 2; if (d > 9) d -= 9; }
      sum += d;
    }
    return sum % 10 === 0;
  }
  function brand(value) {
    if (/^3[47]/.test(value)) return 'amex';
    if (/^(5[1-5]|2[2-7])/.test(value)) return 'mastercard';
    if (/^4/.test(value)) return 'visa';
    if (/^6(011|5)/.test(value)) return 'discover';
    return 'unknown';
  }
  function numberLength(value) { return brand(value) === 'amex' ? 15 : 16; }

  function state() {
    var n = digits(number.value), e = digits(expiry.value), c = digits(cvc.value);
    var empty = !n && !e && !c;
    var error = null;
    var now = new Date();
    var month = Number(e.slice(0, 2)), year = 2000 + Number(e.slice(2, 4));
    if (n.length >= numberLength(n) && !luhn(n)) error = { type: 'validation_error', code: 'invalid_number', message: 'Your card number is invalid.' };
    else if (e.length === 4 && (month < 1 || month > 12)) error = { type: 'validation_error', code: 'invalid_expiry_month', message: "Your card's expiration date is invalid." };
    else if (e.length === 4 && (year < now.getFullYear() || (year === now.getFullYear() && month < now.getMonth() + 1))) error = { type: 'validation_error', code: 'invalid_expiry_year_past', message: "Your card's expiration year is in the past." };
    var incomplete = null;
    if (n.length < numberLength(n)) incomplete = { type: 'validation_error', code: 'incomplete_number', message: 'Your card number is incomplete.' };
    else if (e.length < 4) incomplete = { type: 'validation_error', code: 'incomplete_expiry', message: "Your card's expiration date is incomplete." };
    else if (c.length < (brand(n) === 'amex' ? 4 : 3)) incomplete = { type: 'validation_error', code: 'incomplete_cvc', message: "Your card's security code is incomplete." };
    return { number: n, month: month, year: year, cvc: c, empty: empty, error: error, incomplete: incomplete };
  }

  function format() {
    var n = digits(number.value).slice(0, 19);
    var groups = brand(n) === 'amex' ? [n.slice(0, 4), n.slice(4, 10), n.slice(10, 15)] : n.match(/.{1,4}/g) || [];
    number.value = groups.filter(Boolean).join(' ');
    var e = digits(expiry.value).slice(0, 4);
    if (e.length === 1 && Number(e) > 1) e = '0' + e;
    expiry.value = e.length > 2 ? e.slice(0, 2) + ' / ' + e.slice(2) : e;
    cvc.value = digits(cvc.value).slice(0, 4);
  }

  function changed() {
    format();
    var s = state();
    number.classList.toggle('invalid', !!s.error && s.error.code === 'invalid_number');
    expiry.classList.toggle('invalid', !!s.error && s.error.code.indexOf('expiry') >= 0);
    var payload = { elementType: 'card', empty: s.empty, complete: !s.error && !s.incomplete, brand: brand(s.number) };
    if (s.error) payload.error = s.error;
    send('change', { payload: payload });
  }

  inputs.forEach(function (input) {
    input.addEventListener('input', changed);
    input.addEventListener('focus', function () { send('focus'); });
    input.addEventListener('blur', function () {
      setTimeout(function () { if (inputs.indexOf(document.activeElement) < 0) send('blur'); }, 0);
    });
  });

  function confirm(message) {
    var s = state();
    var problem = s.error || s.incomplete;
    if (problem) { send('result', { requestId: message.requestId, error: problem }); return; }
    var body = new URLSearchParams();
    body.set('key', message.key);
    body.set('client_secret', message.clientSecret);
    body.set('payment_method_data[type]', 'card');
    body.set('payment_method_data[card][number]', s.number);
    body.set('payment_method_data[card][exp_month]', String(s.month));
    body.set('payment_method_data[card][exp_year]', String(s.year));
    body.set('payment_method_data[card][cvc]', s.cvc);
    var details = message.billingDetails || {};
    ['name', 'email', 'phone'].forEach(function (key) {
      if (details[key]) body.set('payment_method_data[billing_details][' + key + ']', details[key]);
    });
    var address = details.address || {};
    ['line1', 'line2', 'city', 'state', 'postal_code', 'country'].forEach(function (key) {
      if (address[key]) body.set('payment_method_data[billing_details][address][' + key + ']', address[key]);
    });
    fetch('/v1/' + message.kind + '/' + encodeURIComponent(message.intentId) + '/confirm', { method: 'POST', body: body })
      .then(function (response) { return response.json(); })
      .then(function (json) {
        if (json.error) send('result', { requestId: message.requestId, error: json.error });
        else send('result', { requestId: message.requestId, result: json });
      })
      .catch(function (error) {
        send('result', { requestId: message.requestId, error: { type: 'api_connection_error', message: String(error && error.message || error) } });
      });
  }

  window.addEventListener('message', function (event) {
    if (event.source !== parent || !event.data || event.data.source !== TAG) return;
    if (parentOrigin !== '*' && event.origin !== parentOrigin) return;
    var message = event.data;
    if (message.type === 'update') { options = message.options || {}; applyStyle(); }
    else if (message.type === 'focus') number.focus();
    else if (message.type === 'blur') { if (document.activeElement) document.activeElement.blur(); }
    else if (message.type === 'clear') { inputs.forEach(function (input) { input.value = ''; }); changed(); }
    else if (message.type === 'confirm') confirm(message);
  });

  applyStyle();
  send('ready');
})();
</script>
</body></html>`;
}
