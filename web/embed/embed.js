// Serving Lab embeds: add <script src="https://YOUR-HOST/serving-lab/embed.js"></script> once to a page
// with Serving Lab iframes, and each frame takes its content's height. The embed works without it (the
// frame keeps its height attribute and scrolls). A frame posts {type: "serving-lab:resize", height}
// whenever its height changes; only a message from one of this page's own iframes resizes that iframe.
// A frame with checked challenges also posts {type: "serving-lab:challenge", cell, challenge, state:
// "attempted" | "solved", values: {input or output: number}} after each check following the reader's edit
// (README "Challenges and assignment links"); this file leaves those to the host page's own listener.
(() => {
  const MIN_PX = 120;
  const MAX_PX = 20000;
  addEventListener('message', (event) => {
    const data = event.data;
    if (!data || typeof data !== 'object' || data.type !== 'serving-lab:resize') return;
    const height = Number(data.height);
    if (!Number.isFinite(height)) return;
    for (const frame of document.querySelectorAll('iframe')) {
      if (frame.contentWindow === event.source) frame.style.height = `${Math.min(MAX_PX, Math.max(MIN_PX, Math.ceil(height)))}px`;
    }
  });
})();
