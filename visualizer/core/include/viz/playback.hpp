// Playback: where the scrubber is and how it moves. Step mode walks frames (see timeline.hpp);
// time mode walks the trace clock. "Follow live" keeps up with a run that is still streaming.
// Keys (the app maps them): space play/pause, left/right step, +/- speed.
#pragma once

namespace ringlab::viz {

struct Playback {
  bool playing = false;
  bool time_mode = false;    // scrub over time instead of steps
  bool follow_live = false;  // jump to (and animate towards) the newest frame as events arrive
  double pos = 0;            // step mode: frame + fraction
  double t = 0;              // time mode: microseconds on the trace clock
  double speed = 1;          // steps per second; in time mode, the whole trace in 10 s at 1x

  void toggle() { playing = !playing, follow_live = false; }  // play/pause: the user takes over
  void faster() { speed = speed * 2 > 64 ? 64 : speed * 2; }
  void slower() { speed = speed / 2 < 0.125 ? 0.125 : speed / 2; }
  // One frame forward/back (whole frames: fraction reset to the middle of the move).
  void step(int delta, int frames);
  // Advance by wall-clock seconds `dt`. Stops at the end unless following a live run.
  void update(double dt, int frames, double t_min, double t_max);
};

}  // namespace ringlab::viz
