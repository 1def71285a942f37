// Everything a lesson needs from the core library, in one include.
#pragma once
#include "ringlab/allreduce.hpp"
#include "ringlab/bench.hpp"
#include "ringlab/buffer.hpp"
#include "ringlab/check.hpp"
#include "ringlab/chunks.hpp"
#include "ringlab/cli.hpp"
#include "ringlab/comm.hpp"
#include "ringlab/device.hpp"
#include "ringlab/dtype.hpp"
#include "ringlab/log.hpp"
#include "ringlab/runtime.hpp"
#include "ringlab/trace.hpp"
