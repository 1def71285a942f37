#include "viz/playback.hpp"

#include <algorithm>
#include <cmath>

namespace ringlab::viz {

void Playback::step(int delta, int frames) {
  playing = false;
  follow_live = false;
  if (frames <= 0) return;
  const int f = std::clamp(static_cast<int>(std::floor(pos)) + delta, 0, frames - 1);
  pos = f + 0.5;  // the middle of the step: every chunk visible on its edge
}

void Playback::update(double dt, int frames, double t_min, double t_max) {
  const double last = frames > 0 ? frames - 1 : 0;
  if (follow_live) {
    // Behind the newest frame: catch up, faster the further behind we are.
    const double behind = last - pos;
    if (behind > 0) pos = std::min(last, pos + dt * std::max(speed, behind * 2));
    t = t_max;
    return;
  }
  if (!playing) return;
  if (time_mode) {
    t += dt * speed * std::max(1.0, t_max - t_min) / 10.0;
    if (t >= t_max) t = t_max, playing = false;
  } else {
    pos += dt * speed;
    if (pos >= last + 0.999) pos = last + 0.999, playing = false;
  }
}

}  // namespace ringlab::viz
