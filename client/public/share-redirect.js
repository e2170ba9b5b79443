// Alternate share links for Messenger's in-app browser (/fb-redirect.html, /fb-viewer.html,
// /fb-shared.html ?id={shareId}): they bring the reader to /shared/{shareId}. An external file
// because the Content-Security-Policy allows only same-origin scripts, never inline ones.
(function () {
  var status = document.getElementById('share-status');
  var link = document.getElementById('share-link');
  var id = new URLSearchParams(window.location.search).get('id');
  if (!id || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) {
    status.textContent = 'Missing share id';
    status.setAttribute('role', 'alert');
    link.setAttribute('href', '/');
    link.textContent = 'Go to Taleweaver';
    link.hidden = false;
    return;
  }
  var target = '/shared/' + encodeURIComponent(id);
  link.setAttribute('href', target);
  link.hidden = false;
  // replace(): the back button should not land on this hop again.
  window.location.replace(target);
})();
