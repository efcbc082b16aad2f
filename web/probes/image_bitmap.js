// Probe image_bitmap: seconds per createImageBitmap of task.payload (a JPEG's bytes) — the browser's own
// image decoder, native code, on the same file the cell request/resnet-request decodes with stb_image in
// wasm. Each call decodes into a fresh bitmap, which is closed at once.
'use strict';

self.SL_PROBES.image_bitmap = function (task) {
  const blob = new Blob([task.payload], { type: 'image/jpeg' });
  const decode = async () => { (await createImageBitmap(blob)).close(); };
  return self.SL_TIMING.time_async(decode, task.repeats);
};
