#pragma once
// What sees an engine's steps from outside (engine.h): every step as the scheduler decided it, with its start and
// end, before it is applied. A request trace for the Gantt chart (request_trace.h) and the schedule a calibration
// re-times (step_schedule.h) are listeners; a listener changes nothing in the run.
#include "llm/engine/scheduler.h"

namespace sl::llm {

class StepListener {
 public:
  virtual ~StepListener() = default;
  /// A step from start_s to end_s, as scheduled (before update_from_output applies it).
  virtual void on_step(const SchedulerOutput& out, double start_s, double end_s) = 0;
};

}  // namespace sl::llm
