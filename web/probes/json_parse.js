// Probe json_parse: seconds per call of the browser's own JSON.parse on a JSON text the cell planned (the
// exact array of N float32 values our C++ encoder wrote; task.arg = N). The bytes become a string once,
// outside the timed loop. Every parse is checked to give an array of N values, so a wrong payload throws
// instead of timing something else. Cell request/serialization compares it with our C++ decoders.
'use strict';

self.SL_PROBES.json_parse = function (task) {
  const text = new TextDecoder().decode(task.payload);
  const expected = task.arg;
  const parse = () => {
    const values = JSON.parse(text);
    if (!Array.isArray(values) || values.length !== expected) {
      throw new Error(`json_parse ${task.key}: expected an array of ${expected} numbers, got ` +
                      (Array.isArray(values) ? `${values.length}` : typeof values));
    }
  };
  return self.SL_TIMING.time_sync(parse, task.repeats);
};
