#!/usr/bin/env python3
"""Lesson 06's MLP in PyTorch eager mode: the peer ringlab's --device cuda is measured against.

    scripts/pytorch_mlp_baseline.py [--data DIR] [--epochs 10] [--batch 128] [--device auto]
    scripts/pytorch_mlp_baseline.py --ddp 2 [--batch 128] ...      DistributedDataParallel, gloo
    scripts/pytorch_mlp_baseline.py --ddp 2 --allreduce-bench      gloo's allreduce alone

The same model and training as lesson 06 (lessons/06_data_parallel, core/src/ml/mlp.cpp), at np 1:
  - MLP 784-256-128-10, ReLU between the layers, mean softmax cross-entropy;
  - He-normal weights (std dev sqrt(2 / fan_in)), zero biases;
  - SGD with momentum, PyTorch's rule = the kit's: v = momentum * v + g; w -= lr * v;
    lr 0.03, momentum 0.9, batch 128, 10 epochs;
  - Fashion-MNIST from the IDX files (gzip or plain), pixels / 255, then standardised with the
    training set's mean and standard deviation (one number each, as the kit does);
  - every epoch a fresh shuffle of the training set from --seed; the last partial batch dropped.
The random numbers are PyTorch's, not the kit's mt19937: the same scheme, not the same draws.

Timing, as lesson 06 prints it: samples/s of an epoch = steps x batch / the epoch's training
time (the test-set evaluation after it is not timed). On a GPU the training set is uploaded
once and each batch is gathered on the device, as lesson 06 --device cuda does; the loss stays
on the device until the epoch ends. TF32 is off (the kit pins its GEMMs to FP32 as well).

--ddp N: the peer of `mpirun -np N lesson_06` on the CPU, as an attendee's laptop runs it:
N processes (spawned here, on 127.0.0.1) each with one thread, torch.distributed over gloo,
the model wrapped in DistributedDataParallel. --batch is the global batch, as in lesson 06:
each rank takes its own batch/N rows of every step's slice of the shared shuffle, and DDP
averages the gradients (one bucketed allreduce per step, overlapped with the backward pass).
Rank 0 prints, and times each epoch between two barriers.
--allreduce-bench (with --ddp N): no training; torch.distributed.all_reduce of float32
buffers from 4 KiB to 64 MiB, printed in nccl-tests' columns (busbw = algbw x 2(N-1)/N), to
set beside lesson 05's rings.

Prints one line per epoch and, last, one machine-readable line:
    summary framework=pytorch mode=eager torch=1.13.1 device=cuda batch=128 epochs=10 ...
        samples_per_s=<median over the epochs> test_acc=<after the last epoch>
PyTorch is not a requirement of the kit: without it this script says so and exits 77 (the
test suite's "skipped"). Bad input: one line on stderr, exit 2.
"""
import argparse
import gzip
import math
import os
import statistics
import struct
import sys
import time


def fail(message):
    print(f"error: pytorch_mlp_baseline: {message}", file=sys.stderr)
    sys.exit(2)


def read_idx(path, magic):
    """One IDX file (gzip or plain): its dimensions and its payload bytes."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as e:
            fail(f"{path}: not a valid gzip file ({e})")
    if len(raw) < 8 or struct.unpack(">I", raw[:4])[0] != magic:
        fail(f"{path}: not an IDX file with magic 0x{magic:08x}")
    ndims = 3 if magic == 0x803 else 1
    dims = struct.unpack(">" + "I" * ndims, raw[4 : 4 + 4 * ndims])
    payload = raw[4 + 4 * ndims :]
    if len(payload) != math.prod(dims):
        fail(f"{path}: header promises {math.prod(dims)} bytes, the file holds {len(payload)}")
    return dims, payload


def find_file(folder, stem):
    for name in (stem + ".gz", stem):
        if os.path.exists(os.path.join(folder, name)):
            return os.path.join(folder, name)
    fail(f"{folder}: no {stem}.gz (or {stem}): not a Fashion-MNIST folder")


def load_fashion_mnist(torch, folder, train_subset, test_subset):
    """Images as float32 rows (standardised with the training set's statistics), labels int64."""
    sets = {}
    for part, prefix in (("train", "train"), ("test", "t10k")):
        (count, rows, cols), pixels = read_idx(find_file(folder, f"{prefix}-images-idx3-ubyte"), 0x803)
        (label_count,), labels = read_idx(find_file(folder, f"{prefix}-labels-idx1-ubyte"), 0x801)
        if label_count != count:
            fail(f"{folder}: {count} {part} images but {label_count} labels")
        x = torch.frombuffer(bytearray(pixels), dtype=torch.uint8).reshape(count, rows * cols)
        y = torch.frombuffer(bytearray(labels), dtype=torch.uint8).to(torch.int64)
        keep = train_subset if part == "train" else test_subset
        if keep:
            x, y = x[:keep], y[:keep]
        sets[part] = [x.to(torch.float32) / 255.0, y]
    # The kit: mean and variance over every training pixel, summed in double.
    train64 = sets["train"][0].to(torch.float64)
    n = train64.numel()
    s, sq = train64.sum().item(), (train64 * train64).sum().item()
    mean = torch.tensor(s / n, dtype=torch.float32)
    sd = torch.tensor(math.sqrt(max(sq / n - (s / n) ** 2, 1e-12)), dtype=torch.float32)
    for part in sets.values():
        part[0] = (part[0] - mean) / sd
    return sets["train"], sets["test"]


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default="/usr/share/datasets/fashion-mnist",
                        help="folder with the Fashion-MNIST IDX files (.gz or plain)")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--batch", type=int, default=128, help="the global batch (split over --ddp ranks)")
    parser.add_argument("--lr", type=float, default=0.03)
    parser.add_argument("--momentum", type=float, default=0.9)
    parser.add_argument("--seed", type=int, default=1, help="seed of the initial weights and the data order")
    parser.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto",
                        help="auto: cuda when PyTorch sees a GPU, else cpu (--ddp: cpu)")
    parser.add_argument("--threads", type=int, default=0,
                        help="CPU threads for PyTorch (0: its default; --ddp: 1 per rank)")
    parser.add_argument("--mode", choices=["eager", "compile", "graph"], default="eager",
                        help="eager; compile: torch.compile(mode='reduce-overhead'); graph: the whole step as "
                             "one CUDA graph, fused SGD where available (GPU)")
    parser.add_argument("--seeds", type=int, default=1, help="train this many times, seeds --seed, --seed+1, ...")
    parser.add_argument("--ddp", type=int, default=0, metavar="N",
                        help="N processes, DistributedDataParallel over gloo on the CPU")
    parser.add_argument("--allreduce-bench", action="store_true",
                        help="with --ddp N: time gloo's allreduce alone (nccl-tests columns), no training")
    parser.add_argument("--iters", type=int, default=20, help="--allreduce-bench: timed calls per size")
    parser.add_argument("--train-subset", type=int, default=0, help="train on the first N examples only (tests)")
    parser.add_argument("--test-subset", type=int, default=0, help="test on the first N examples only (tests)")
    args = parser.parse_args()
    for name in ("epochs", "batch", "iters", "seeds"):
        if getattr(args, name) < 1:
            fail(f"--{name} {getattr(args, name)}: must be at least 1")
    for name in ("threads", "train_subset", "test_subset", "ddp"):
        if getattr(args, name) < 0:
            fail(f"--{name.replace('_', '-')} {getattr(args, name)}: must not be negative")
    if not (args.lr > 0 and math.isfinite(args.lr)) or not 0 <= args.momentum < 1:
        fail(f"--lr must be > 0 and --momentum in [0, 1), got {args.lr} and {args.momentum}")
    if args.ddp and args.batch % args.ddp:
        fail(f"--batch {args.batch} is the global batch: it must divide by --ddp {args.ddp}")
    if args.ddp and args.device == "cuda":
        fail("--ddp runs on the CPU over gloo (the GPU comparison is the single-process modes)")
    if args.ddp and args.mode != "eager":
        fail(f"--ddp runs eager DistributedDataParallel; --mode {args.mode} is for one GPU")
    if args.allreduce_bench and not args.ddp:
        fail("--allreduce-bench needs --ddp N (the number of ranks)")
    return args


def import_torch(args):
    try:
        import torch
    except ImportError as e:
        print(f"pytorch_mlp_baseline: PyTorch is not installed here ({e}): skipped (exit 77)")
        sys.exit(77)
    if args.device == "cuda" and not torch.cuda.is_available():
        print("pytorch_mlp_baseline: --device cuda but PyTorch sees no GPU: skipped (exit 77)")
        sys.exit(77)
    return torch


def allreduce_bench(torch, dist, rank, world, iters):
    """gloo's allreduce of float32 buffers, in nccl-tests' columns (rank 0 prints)."""
    if rank == 0:
        print(f"{'size(B)':>12} {'count':>10} {'type':>6} {'time(us)':>10} {'algbw(GB/s)':>12} {'busbw(GB/s)':>12}",
              flush=True)
    size = 4096
    while size <= 64 << 20:
        count = size // 4
        buf = torch.ones(count, dtype=torch.float32)
        for _ in range(2):  # warm-up: gloo sets up its pairs and buffers on first use
            dist.all_reduce(buf)
        dist.barrier()
        times = []
        for _ in range(iters):
            t0 = time.perf_counter()
            dist.all_reduce(buf)
            times.append(time.perf_counter() - t0)
        # The slowest rank's median is the collective's time, as lesson 05 takes it.
        worst = torch.tensor([statistics.median(times)], dtype=torch.float64)
        dist.all_reduce(worst, op=dist.ReduceOp.MAX)
        t = worst.item()
        algbw = size / t / 1e9
        if rank == 0:
            print(f"{size:>12} {count:>10} {'float':>6} {t * 1e6:>10.1f} {algbw:>12.4f} "
                  f"{algbw * 2 * (world - 1) / world:>12.4f}", flush=True)
        size *= 4
    if rank == 0:
        print(f"summary framework=pytorch mode=allreduce backend=gloo torch={torch.__version__} ranks={world}",
              flush=True)


def make_model(torch, sizes, seed, device):
    """Lesson 06's MLP: He-normal weights from `seed`, zero biases, no ReLU after the last layer."""
    gen = torch.Generator().manual_seed(seed)  # the same on every rank (DDP also broadcasts rank 0's)
    layers = []
    for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
        linear = torch.nn.Linear(fan_in, fan_out)  # weight: out x in, as the kit's W
        with torch.no_grad():
            linear.weight.copy_(torch.randn(fan_out, fan_in, generator=gen) * math.sqrt(2.0 / fan_in))
            linear.bias.zero_()
        layers += [linear, torch.nn.ReLU()]
    return torch.nn.Sequential(*layers[:-1]).to(device)


def make_sgd(torch, params, args, want_fused):
    """SGD with momentum; fused (one kernel for every parameter) where this PyTorch has it."""
    if want_fused:
        try:
            return torch.optim.SGD(params, lr=args.lr, momentum=args.momentum, fused=True), True
        except (TypeError, RuntimeError):
            pass  # PyTorch before 2.1: no fused SGD
    return torch.optim.SGD(params, lr=args.lr, momentum=args.momentum), False


def run(rank, args, port):
    """One process: the whole run at --ddp 0, rank `rank` of --ddp N otherwise."""
    torch = import_torch(args)
    world = max(args.ddp, 1)
    dist = None
    if args.ddp:
        import torch.distributed as dist
        torch.set_num_threads(1)  # one thread per rank, as each MPI rank of lesson 06 has
        dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=world)
        if args.allreduce_bench:
            allreduce_bench(torch, dist, rank, world, args.iters)
            dist.destroy_process_group()
            return 0
    elif args.threads:
        torch.set_num_threads(args.threads)
    say = print if rank == 0 else (lambda *a, **k: None)
    device = torch.device("cuda" if args.device == "cuda" or (args.device == "auto" and torch.cuda.is_available()
                                                             and not args.ddp) else "cpu")
    # The modes beyond eager: what a practitioner who cares about speed runs on a GPU.
    if args.mode == "compile" and not hasattr(torch, "compile"):
        print(f"pytorch_mlp_baseline: --mode compile needs PyTorch 2 (torch.compile); this is {torch.__version__}: "
              "skipped (exit 77)")
        sys.exit(77)
    if args.mode == "graph" and device.type != "cuda":
        print("pytorch_mlp_baseline: --mode graph captures the step as a CUDA graph: it needs a GPU: skipped (exit 77)")
        sys.exit(77)
    torch.backends.cuda.matmul.allow_tf32 = False  # FP32 GEMMs, as the kit's
    torch.backends.cudnn.allow_tf32 = False
    tf32 = "on" if torch.backends.cuda.matmul.allow_tf32 or torch.backends.cudnn.allow_tf32 else "off"

    (x_train, y_train), (x_test, y_test) = load_fashion_mnist(torch, args.data, args.train_subset, args.test_subset)
    if args.batch > x_train.shape[0]:
        fail(f"--batch {args.batch}: larger than the {x_train.shape[0]} training examples")
    x_train, y_train = x_train.to(device), y_train.to(device)  # uploaded once
    x_test, y_test = x_test.to(device), y_test.to(device)

    sizes = [x_train.shape[1], 256, 128, 10]
    params = sum(a * b + b for a, b in zip(sizes[:-1], sizes[1:]))
    count = x_train.shape[0]
    steps = count // args.batch  # the last, partial batch is dropped
    per_rank = args.batch // world
    mode = "ddp" if args.ddp else args.mode
    where = (f"cuda ({torch.cuda.get_device_name(device)})" if device.type == "cuda"
             else f"cpu ({torch.get_num_threads()} threads" + (f" per rank, {world} ranks over gloo)" if args.ddp else ")"))
    say(f"pytorch baseline: torch {torch.__version__}, {mode}, TF32 {tf32}, device {where}, MLP "
        f"{'-'.join(map(str, sizes))} ({params} parameters), batch {args.batch}"
        + (f" ({per_rank} per rank)" if args.ddp else "") + f", {steps} steps per epoch, "
        f"lr {args.lr}, momentum {args.momentum}, {count} train / {x_test.shape[0]} test examples from {args.data}, "
        f"{args.seeds} seed(s)", flush=True)

    def synchronize():
        if device.type == "cuda":
            torch.cuda.synchronize(device)
        if dist:
            dist.barrier()

    def train(seed):
        """One training run from `seed`: its samples/s per epoch, last mean loss, test accuracy."""
        model = make_model(torch, sizes, seed, device)
        net = torch.nn.parallel.DistributedDataParallel(model) if args.ddp else model
        if args.mode == "compile":
            # As a practitioner compiles: the model (forward, and its backward through
            # AOTAutograd); reduce-overhead launches inductor's kernels through CUDA graphs.
            net = torch.compile(model, mode="reduce-overhead")
        opt, fused = make_sgd(torch, net.parameters(), args, want_fused=args.mode == "graph")
        loss_fn = torch.nn.CrossEntropyLoss()

        def step(x, y):
            loss = loss_fn(net(x), y)
            loss.backward()  # DDP: the gradients' allreduce runs here, bucket by bucket
            opt.step()
            return loss

        def eager_step(idx):
            opt.zero_grad(set_to_none=True)
            return step(x_train[idx], y_train[idx])  # the batch gathered where the data is

        run_step = eager_step
        if args.mode == "graph":
            # The whole step (gather, forward, backward, SGD) captured once and replayed, as in
            # PyTorch's CUDA graphs notes ("whole network capture"): warm up on a side stream
            # (the first batches of epoch 1: they train like any other), set the gradients to
            # None, then capture. Inside the capture, backward allocates the gradients from the
            # graph's own memory pool, so each replay writes them afresh (nothing accumulates).
            static_idx = torch.zeros(per_rank, dtype=torch.int64, device=device)
            side = torch.cuda.Stream(device)
            side.wait_stream(torch.cuda.current_stream(device))
            warm = torch.randperm(count, generator=torch.Generator().manual_seed(seed)).to(device)
            with torch.cuda.stream(side):
                for w in range(3):
                    static_idx.copy_(warm[w * per_rank : (w + 1) * per_rank])
                    opt.zero_grad(set_to_none=True)
                    step(x_train[static_idx], y_train[static_idx])
            torch.cuda.current_stream(device).wait_stream(side)
            graph = torch.cuda.CUDAGraph()
            opt.zero_grad(set_to_none=True)
            with torch.cuda.graph(graph):
                static_loss = step(x_train[static_idx], y_train[static_idx])

            def run_step(idx):
                static_idx.copy_(idx)  # the only input: which rows this step gathers
                graph.replay()
                return static_loss

        def test_accuracy():
            model.eval()
            correct = 0
            with torch.no_grad():
                for i in range(0, x_test.shape[0], 2000):
                    logits = model(x_test[i : i + 2000])
                    correct += (logits.argmax(dim=1) == y_test[i : i + 2000]).sum().item()
            model.train()
            return correct / x_test.shape[0]

        data_gen = torch.Generator().manual_seed(seed * 1000003)
        rates, accuracy, mean_loss = [], 0.0, float("nan")
        for epoch in range(1, args.epochs + 1):
            order = torch.randperm(count, generator=data_gen).to(device)  # the same on every rank
            loss_sum = torch.zeros((), device=device)
            synchronize()
            t0 = time.perf_counter()
            for s in range(steps):
                first = s * args.batch + rank * per_rank  # this rank's rows of the step's global batch
                loss_sum += run_step(order[first : first + per_rank]).detach()
            synchronize()
            seconds = time.perf_counter() - t0
            if dist:  # the mean loss over every rank's batches, as lesson 06 prints it
                dist.all_reduce(loss_sum)
                loss_sum /= world
            mean_loss = loss_sum.item() / steps
            accuracy = test_accuracy()
            rates.append(steps * args.batch / seconds)
            say(f"epoch {epoch}/{args.epochs}  loss {mean_loss:.4f}  test acc {accuracy:.4f}  "
                f"{rates[-1]:.0f} samples/s  ({seconds:.1f} s)" + (f"  seed {seed}" if args.seeds > 1 else ""),
                flush=True)
        return rates, mean_loss, accuracy, fused

    per_seed, accuracies, losses, fused = [], [], [], False
    for seed in range(args.seed, args.seed + args.seeds):
        rates, mean_loss, accuracy, fused = train(seed)
        per_seed.append(statistics.median(rates))  # a seed's rate: the median of its epochs
        accuracies.append(accuracy)
        losses.append(mean_loss)

    gpu = torch.cuda.get_device_name(device).replace(" ", "_") if device.type == "cuda" else "none"
    say(f"summary framework=pytorch mode={mode} torch={torch.__version__} tf32={tf32} "
        f"fused_sgd={'yes' if fused else 'no'} device={device.type} gpu={gpu} "
        f"threads={torch.get_num_threads()} ranks={world} batch={args.batch} epochs={args.epochs} seeds={args.seeds} "
        f"train_examples={count} steps_per_epoch={steps} samples_per_s={statistics.median(per_seed):.0f} "
        f"samples_per_s_min={min(per_seed):.0f} samples_per_s_max={max(per_seed):.0f} "
        f"samples_per_s_last={rates[-1]:.0f} loss_last={losses[-1]:.4f} "
        f"test_acc={statistics.median(accuracies):.4f}")
    if dist:
        dist.destroy_process_group()
    return 0 if all(math.isfinite(l) for l in losses) else 1


def spawned(rank, args, port):
    """A --ddp rank: torch.multiprocessing reports a non-zero exit as an exception."""
    rc = run(rank, args, port)
    if rc:
        sys.exit(rc)


def main():
    args = parse_args()
    if not args.ddp:
        return run(0, args, 0)
    import_torch(args)  # exit 77 here, before spawning, where there is none
    import socket
    import torch.multiprocessing as mp
    with socket.socket() as s:  # a free port on loopback for gloo's rendezvous
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    try:
        mp.spawn(spawned, args=(args, port), nprocs=args.ddp, join=True)
    except mp.ProcessExitedException as e:
        return e.exit_code or 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
