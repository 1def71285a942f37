// The simulated GPU (--device sim): its ops give the host loops' results bit for bit, copies go
// both ways, and host code that touches its memory stops the process with one line naming the
// byte, as a host loop over a GPU buffer crashes on a GPU. No MPI: the device alone.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ringlab/comm/memory.hpp"
#include "ringlab/comm/ops.hpp"
#include "ringlab/comm/sim_device.hpp"

using ringlab::Buffer;
using ringlab::View;
using ringlab::Where;

namespace {
// Runs `touch` in a child process with the simulated device on; returns its exit status and
// what it wrote to stderr.
template <class F> std::pair<int, std::string> in_child(F touch) {
  int pipe_fd[2];
  REQUIRE(pipe(pipe_fd) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    dup2(pipe_fd[1], STDERR_FILENO);
    close(pipe_fd[0]);
    signal(SIGSEGV, SIG_DFL);  // not the test framework's handler: a fault not ours ends the child
    ringlab::sim_device::start(1, 2);
    touch();
    _exit(0);
  }
  close(pipe_fd[1]);
  std::string err;
  char chunk[512];
  for (ssize_t got; (got = read(pipe_fd[0], chunk, sizeof chunk)) > 0;) err.append(chunk, static_cast<std::size_t>(got));
  close(pipe_fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status), err};
}
}  // namespace

TEST_CASE("on the simulated device the ops give the host loops' results, bit for bit") {
  ringlab::sim_device::start(0, 1);
  REQUIRE(ringlab::sim_device::on());
  const std::size_t n = 1001;
  std::vector<float> a(n), b(n), p(n), v(n);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = 0.1f * static_cast<float>(i) - 3.7f;
    b[i] = 1.0f / static_cast<float>(i + 3);
    p[i] = 0.01f * static_cast<float>(i % 17);
    v[i] = -0.003f * static_cast<float>(i % 5);
  }
  Buffer<float> da(n, Where::device), db(n, Where::device), dp(n, Where::device), dv(n, Where::device);
  ringlab::copy(da.view(), View<const float>(a));
  ringlab::copy(db.view(), View<const float>(b));
  ringlab::copy(dp.view(), View<const float>(p));
  ringlab::copy(dv.view(), View<const float>(v));
  // The same ops on host Views and on device Views.
  ringlab::reduce_sum(View<float>(a), View<const float>(b));
  ringlab::reduce_sum(da.view(), db.view());
  ringlab::scale(View<float>(a), 1.0f / 3.0f);
  ringlab::scale(da.view(), 1.0f / 3.0f);
  ringlab::sgd_momentum(View<float>(p), View<const float>(a), View<float>(v), 0.03f, 0.9f);
  ringlab::sgd_momentum(dp.view(), View<const float>(da.view()), dv.view(), 0.03f, 0.9f);
  std::vector<float> got(n);
  for (auto [host, device] : {std::pair{&a, &da}, std::pair{&p, &dp}, std::pair{&v, &dv}}) {
    ringlab::copy(View<float>(got), View<const float>(device->view()));
    CHECK(std::memcmp(got.data(), host->data(), n * sizeof(float)) == 0);
  }
  ringlab::fill(db.view(), 2.5f);
  ringlab::copy(View<float>(got), View<const float>(db.view()));
  CHECK(got[0] == 2.5f);
  CHECK(got[n - 1] == 2.5f);
  // Host memory is its own device side; a device address is not.
  CHECK(ringlab::sim_device::device_side(static_cast<void*>(a.data())) == a.data());
  CHECK(ringlab::sim_device::device_side(static_cast<void*>(da.view().data())) != da.view().data());
}

TEST_CASE("host code that touches simulated device memory stops with one line naming the byte") {
  const auto [code, err] = in_child([] {
    Buffer<float> grad(100, Where::device);
    View<float> g = grad.view();
    for (float& x : g.sub(10, 5)) x /= 2;  // the host loop a GPU would not survive
  });
  CHECK(code == 5);
  CHECK(err ==
        "[rank 1/2] error: host code touched device memory: byte 40 of a device buffer of 400 bytes (--device "
        "sim, a simulated GPU). On a GPU, device memory is not host memory: a loop, an index or a std:: "
        "algorithm on a device View, or its data(), crashes there as it stops here. Use the ringlab ops "
        "(ringlab::scale, copy, reduce_sum, fill, sgd_momentum): they run where the data is.\n");
  // A fault that is not on the simulated device is left alone: what would have handled it does
  // (the default action kills the child with SIGSEGV; under AddressSanitizer its report and exit 1).
  const auto [other, said] = in_child([] {
    volatile int* nowhere = nullptr;
    *nowhere = 1;
  });
  CHECK((other == -SIGSEGV || other == 1));
  CHECK(said.find("host code touched device memory") == std::string::npos);
}

TEST_CASE("a released buffer's pages go back; a host and a device operand together are refused") {
  ringlab::sim_device::start(0, 1);
  for (int i = 0; i < 10000; ++i) {  // more than the table holds at once: each slot is reused
    Buffer<double> b(3, Where::device);
    ringlab::fill(b.view(), 1.0);
  }
  Buffer<float> device(4, Where::device);
  std::vector<float> host(4);
  CHECK_THROWS_WITH(ringlab::reduce_sum(device.view(), View<const float>(host)),
                    "reduce_sum: operands in host and device memory at once — a host buffer (a std::vector) "
                    "beside device data; make it where the data is: comm.scratch_like(view), or a Buffer in "
                    "comm.where()");
}
