#!/usr/bin/env bash
# Two simulated hosts on this machine, so that ranks are spread over hosts as on a cluster:
#   network namespaces rlh0-ID and rlh1-ID joined by a veth pair (169.254.77.1 <-> .2, link-local
#   addresses that exist only inside these two namespaces), each process in its own UTS
#   namespace with hostname h0 or h1. mpirun runs "on" h0 and starts h1's ranks through a launch
#   agent (plm_rsh_agent) that enters h1's namespaces instead of ssh-ing; the ranks talk TCP
#   over the veth between hosts, shared memory within one.
# Checks: lesson 01 shows local ranks 0..1 on each host; lesson 05 --check and lesson 06 --check
# pass across the hosts. Open MPI 4 or 5. Needs root and ip (iproute2); exits 77 (skipped)
# where they are missing.
# Everything it creates (namespaces, veth, /etc/netns/NAME) is removed on exit.
# usage: two_hosts.sh MPIRUN_SCRIPT BIN_DIR
set -uo pipefail
mpirun_script="$1" bin="$2"
skip() { echo "SKIPPED: $*"; exit 77; }
fail() { echo "FAILED: $*"; exit 1; }
[[ "$(id -u)" == 0 ]] || skip "needs root (ip netns)"
command -v ip >/dev/null || skip "needs ip (apt-get install iproute2)"
command -v unshare >/dev/null || skip "needs unshare (util-linux)"
# The launch agent and the daemons' network are set with Open MPI 4's ORTE parameters or Open
# MPI 5's PRRTE ones; the shared-memory transport is vader on 4, sm on 5.
case "$(mpirun --version 2>/dev/null | grep -o 'Open MPI) [0-9]*' | grep -o '[0-9]*$')" in
  4) rte=(--mca plm_rsh_agent) oob=(--mca oob_tcp_if_include) shm=vader ;;
  5) rte=(--prtemca plm_ssh_agent) oob=(--prtemca oob_tcp_if_include) shm=sm ;;
  *) skip "needs Open MPI 4 or 5" ;;
esac

id=$$ ns0="rlh0-$$" ns1="rlh1-$$"
dir="$(mktemp -d)"
cleanup() {
  ip netns del "$ns0" 2>/dev/null
  ip netns del "$ns1" 2>/dev/null  # deleting a namespace deletes its end of the veth, and the pair
  rm -rf "/etc/netns/$ns0" "/etc/netns/$ns1" "$dir"
}
trap cleanup EXIT
ip netns add "$ns0" 2>/dev/null || skip "cannot create a network namespace here (no CAP_SYS_ADMIN?)"
# Entering one needs mounts (ip netns exec remounts /sys and makes / a slave mount): refused in
# a chroot whose root is not a mount point, or in a container without the rights. Like a GPU
# test without a GPU, that is a skip with the reason, not a failure of the kit.
why="$(ip netns exec "$ns0" unshare --uts true 2>&1)" ||
  skip "cannot enter a network namespace here: ${why%%$'\n'*}"
ip netns add "$ns1" || fail "ip netns add $ns1"
ip link add "rlv0-$id" type veth peer name "rlv1-$id" || fail "ip link add veth"
ip link set "rlv0-$id" netns "$ns0" && ip link set "rlv1-$id" netns "$ns1" || fail "moving the veth ends"
ip -n "$ns0" addr add 169.254.77.1/30 dev "rlv0-$id" && ip -n "$ns1" addr add 169.254.77.2/30 dev "rlv1-$id" ||
  fail "addresses"
for n in 0 1; do
  ip -n "rlh$n-$id" link set lo up && ip -n "rlh$n-$id" link set "rlv$n-$id" up || fail "links up"
  # ip netns exec shows /etc/netns/NAME/hosts as /etc/hosts inside the namespace: h0, h1 resolve.
  [[ -e /etc/hosts ]] || continue  # (a bare chroot has none to bind over)
  mkdir -p "/etc/netns/rlh$n-$id"
  printf '127.0.0.1 localhost\n169.254.77.1 h0\n169.254.77.2 h1\n' >"/etc/netns/rlh$n-$id/hosts"
done

# The launch agent: Open MPI calls "agent HOST COMMAND..." as it would call ssh.
cat >"$dir/agent" <<AGENT
#!/usr/bin/env bash
host="\$1"; shift
exec ip netns exec "rl\$host-$id" unshare --uts bash -c "hostname \$host && \$*"
AGENT
# mpirun itself runs on h0.
cat >"$dir/mpirun" <<LAUNCHER
#!/usr/bin/env bash
exec ip netns exec "$ns0" unshare --uts bash -c 'hostname h0 && exec mpirun "\$@"' mpirun "\$@"
LAUNCHER
chmod +x "$dir/agent" "$dir/mpirun"
export RINGLAB_MPIRUN="$dir/mpirun"
export RINGLAB_MPIRUN_FLAGS="--host h0:2,h1:2 ${rte[*]} $dir/agent --mca btl self,$shm,tcp
  --mca btl_tcp_if_include 169.254.77.0/30 ${oob[*]} 169.254.77.0/30"
run() { timeout 60 "$mpirun_script" -np 4 "$@" 2>&1; }

out="$(run "$bin/lesson_01" --check)" || { echo "$out"; fail "lesson 01 --check across two hosts"; }
echo "$out"
grep -q "rank 1/4  local 1/2  host h0" <<<"$out" || fail "rank 1 is not local rank 1 on h0"
grep -q "rank 2/4  local 0/2  host h1" <<<"$out" || fail "rank 2 is not local rank 0 on h1"
grep -q "check: 2 host(s), local ranks 0..local_size-1 on each: PASSED" <<<"$out" || fail "lesson 01 check"

out="$(run "$bin/lesson_05" --check --count 65537)" || { echo "$out"; fail "lesson 05 --check across two hosts"; }
echo "$out" | tail -3
grep -Eq "^ring +65537 +float" <<<"$out" || fail "lesson 05 printed no ring row"

out="$(run "$bin/lesson_06" --check --data synthetic --epochs 1 --batch 512)" ||
  { echo "$out"; fail "lesson 06 --check across two hosts"; }
echo "$out" | tail -2
grep -q "check: replicas bit-identical after every step.*PASSED" <<<"$out" || fail "lesson 06 check"
echo "PASSED: lessons 01, 05, 06 across two hosts (h0, h1) over TCP"
