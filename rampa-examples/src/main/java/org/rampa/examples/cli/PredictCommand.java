package org.rampa.examples.cli;

import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.ModelCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.domain.GpuType;
import org.rampa.domain.Model;
import org.rampa.domain.ServingRuntime;
import org.rampa.domain.share.CuMask;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigLayout;
import org.rampa.domain.share.MigProfile;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MigSliceMps;
import org.rampa.domain.share.MpsAdmission;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.ShareViolation;
import org.rampa.domain.share.TemplatePartition;
import org.rampa.domain.share.Whole;
import org.rampa.examples.sim.WorkloadSpec;
import org.rampa.json.RampaJson;
import org.rampa.perf.DeviceKind;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.share.CoRunner;
import org.rampa.perf.share.FittedShareTimeModel;
import org.rampa.perf.share.InterferenceModel;
import org.rampa.perf.share.MeasuredShareTable;
import org.rampa.perf.share.ShareTimeModel;
import org.rampa.perf.share.SharedStage;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "predict", mixinStandardHelpOptions = true,
    description = {"How fast is one batch of a model on a GPU or a part of one? The whole model as one stage,",
        "timed by the share-time tiers (measured tables, fitted laws, the analytic model) and slowed by",
        "K co-runners (default interference: linear, 5 %% per contended co-runner; none under MIG and",
        "templates). Prints one JSON object: runtime, seconds, secondsAlone, slowdown, memoryBytes, fits, placement."})
final class PredictCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--model", required = true, paramLabel = "NAME", description = "A catalog model (see `rampa catalog`).")
  String model;

  @Option(names = "--phase", defaultValue = "model", paramLabel = "model|prefill|decode",
      description = "model: the catalog model as listed (transformers: prefill at their default length); prefill or decode a transformer at --tokens. Default: ${DEFAULT-VALUE}.")
  String phase;

  @Option(names = "--tokens", paramLabel = "N", description = "Sequence length (prefill) or context (decode). Default: 512.")
  Integer tokens;

  @Option(names = "--runtime", defaultValue = "tensorrt", paramLabel = "tensorrt|pytorch-eager|muxserve",
      description = {"The serving runtime, whose own measurements time the model on every tier: tensorrt (the catalog's MLPerf",
          "calibration), pytorch-eager (ParvaGPU's A100-80GB MIG tables, whose 7g instance is the whole GPU), muxserve",
          "(MuxServe's table). Default: ${DEFAULT-VALUE}."})
  String runtime;

  @Option(names = "--gpu", required = true, paramLabel = "TYPE", description = "A catalog GPU type, or a modelled NPU type for --template.")
  String gpu;

  @Option(names = "--batch", defaultValue = "1", paramLabel = "B", description = "Batch size. Default: ${DEFAULT-VALUE}.")
  int batch;

  @ArgGroup(exclusive = true)
  Part part;

  static final class Part {
    @Option(names = "--mig", paramLabel = "PROFILE[@START]", description = "A MIG profile of the type (e.g. 3g.40gb), at its first allowed start unless @START is given.")
    String mig;

    @Option(names = "--mps", paramLabel = "FRACTION", description = "An MPS share in (0, 1]; 1.0 is the whole GPU.")
    Double mps;

    @Option(names = "--cu-mask", paramLabel = "N", description = "An AMD CU mask of N compute units.")
    Integer cuMask;

    @Option(names = "--template", paramLabel = "NAME", description = "An NPU partition template (modelled NPU types only).")
    String template;
  }

  @Option(names = "--mps-processes", paramLabel = "N",
      description = {"With --mig: N MPS processes of the model share the instance (ParvaGPU's segment); seconds and",
          "throughput are one process's. Answered only from measured or fitted ParvaGPU series (resnet50, vgg16,",
          "mobilenetv2 on an A100 80 GB, --runtime pytorch-eager): the analytic model does not model processes sharing an instance."})
  Integer mpsProcesses;

  @Option(names = "--co-runners", defaultValue = "0", paramLabel = "K",
      description = "K other stages of the same kind on the same GPU, each on the same kind of placement. Default: ${DEFAULT-VALUE}.")
  int coRunners;

  private static final int DEFAULT_TOKENS = 512;

  /** The smallest MPS share: CUDA_MPS_ACTIVE_THREAD_PERCENTAGE is a percentage, and 1 % is the least that reads as a share. */
  static final double MIN_MPS_SHARE = 0.01;

  @Override
  public Integer call() {
    if (batch < 1 || batch > WorkloadSpec.MAX_BATCH) {
      throw bad("--batch", batch, "must lie in [1, " + WorkloadSpec.MAX_BATCH + "], as a workload's batch");
    }
    if (coRunners < 0 || coRunners >= GpuPartitioning.MPS_CLIENTS_PER_GPU) {
      throw bad("--co-runners", coRunners, "must lie in [0, " + (GpuPartitioning.MPS_CLIENTS_PER_GPU - 1)
          + "]: a GPU takes at most " + GpuPartitioning.MPS_CLIENTS_PER_GPU + " MPS clients");
    }
    Model m = model().servedBy(servingRuntime());
    GpuType type = type();
    GpuPartitioning parts = type.partitioning();
    PerformanceModel pm = PerformanceModel.defaults();
    long memory = pm.stageMemoryBytes(m, 0, m.size(), batch);
    Placement placement = placement(parts, memory);
    if (placement instanceof MigSliceMps processes) {
      requireMeasuredOrFitted(SharedStage.wholeModel(m, batch, type, parts, processes));
    }
    requireRoomForCoRunners(parts, placement);

    var c = pm.cursor(m, batch, 0, List.of(DeviceKind.of(type, placement), DeviceKind.of(type, new Whole())));
    while (c.canAdd()) {
      c.add();
    }
    double alone = c.seconds(0);
    // the analytic tier keeps each layer's launch overhead and floor whatever the share: a stage made of them runs as fast on any share
    String note = !(placement instanceof Whole) && alone == c.seconds(1)
        ? "launch-bound: at batch " + batch + " every layer's whole-GPU time is within its per-layer overhead and floor, which no share"
            + " changes, so this placement is as fast as the whole GPU (docs/SHARING-MODEL.md, analytic tier)"
        : null;
    SharedStage stage = SharedStage.wholeModel(m, batch, type, parts, placement);
    CoRunner self = CoRunner.of("self", stage, alone);
    List<CoRunner> others = Collections.nCopies(coRunners, CoRunner.of("co-runner", stage, alone));
    double slowdown = InterferenceModel.defaults().slowdown(type, self, others);
    long capacity = capacity(parts, placement);

    double seconds = alone * slowdown;
    spec.commandLine().getOut().println(RampaJson.write(new Prediction(m.name(), m.runtime(), type.name(), batch, placement, placement.label(),
        placement.computeFraction(parts), coRunners, alone, slowdown, seconds, batch / seconds, memory, capacity, memory <= capacity, note)));
    return 0;
  }

  /** The printed answer; a record so that the placement is written with its {@code "kind"}. */
  record Prediction(String model, ServingRuntime runtime, String gpu, int batch, Placement placement, String placementLabel, double computeFraction,
      int coRunners, double secondsAlone, double slowdown, double seconds, double throughput, long memoryBytes,
      long capacityBytes, boolean fits, String note) {}

  private ServingRuntime servingRuntime() {
    try {
      return ServingRuntime.of(runtime);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--runtime: " + e.getMessage());
    }
  }

  private Model model() {
    if (!ModelCatalog.names().contains(model)) {
      throw bad("--model", model, "is not a catalog model; choose one of " + ModelCatalog.names());
    }
    if ((phase.equals("prefill") || phase.equals("decode")) && !ModelCatalog.isTransformer(model)) {
      throw bad("--phase", phase, model + " is not a transformer, and only transformers have a " + phase + " phase; use --phase model, or one of "
          + ModelCatalog.names().stream().filter(ModelCatalog::isTransformer).toList());
    }
    int n = tokens == null ? DEFAULT_TOKENS : tokens;
    try {
      return switch (phase) {
        case "model" -> {
          if (tokens != null) {
            throw bad("--tokens", tokens, "applies to --phase prefill or decode only");
          }
          yield ModelCatalog.model(model);
        }
        case "prefill" -> ModelCatalog.prefill(model, n);
        case "decode" -> ModelCatalog.decode(model, n);
        default -> throw bad("--phase", phase, "must be model, prefill or decode");
      };
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), (ModelCatalog.isTransformer(model) ? "--tokens/--phase: " : "--phase: ") + e.getMessage());
    }
  }

  private GpuType type() {
    if (GpuCatalog.standard().ids().contains(gpu)) {
      return GpuCatalog.standard().type(gpu);
    }
    return SharingCatalog.standard().npuTypes().stream().filter(t -> t.name().equals(gpu)).findFirst()
        .orElseThrow(() -> bad("--gpu", gpu, "is not a catalog GPU or NPU type; choose one of " + SharingCatalog.standard().gpuTypes()));
  }

  /** The placement the options ask for; an MPS or CU-mask reservation is the stage's memory. */
  private Placement placement(GpuPartitioning parts, long memory) {
    if (mpsProcesses != null && (part == null || part.mig == null)) {
      throw bad("--mps-processes", mpsProcesses, "applies to a MIG slice only: add --mig PROFILE");
    }
    if (part == null) {
      return new Whole();
    }
    String option = part.mig != null ? "--mig" : part.mps != null ? "--mps" : part.cuMask != null ? "--cu-mask" : "--template";
    try {
      Placement p;
      if (part.mps != null) {
        if (!(part.mps > 0 && part.mps <= 1)) {
          throw bad("--mps", part.mps, "must lie in (0, 1]. Maybe you passed a percentage instead of a fraction");
        }
        if (part.mps < MIN_MPS_SHARE) {
          throw bad("--mps", part.mps, "is below " + MIN_MPS_SHARE + ": MPS sets a share as an active-thread percentage, at least 1 %");
        }
        p = part.mps == 1.0 ? new Whole() : new MpsShare(part.mps, memory);
      } else if (part.mig != null) {
        p = migSlice(parts, part.mig);
        if (mpsProcesses != null) {
          p.requireOn(parts);
          p = processes((MigSlice) p, parts, memory);
        }
      } else if (part.cuMask != null) {
        int card = parts.requireComputeUnits();
        if (part.cuMask < 1 || part.cuMask > card) {
          throw bad("--cu-mask", part.cuMask, "must lie in [1, " + card + "], the CUs of a " + parts.gpuType());
        }
        p = new CuMask(part.cuMask, memory);
      } else {
        p = new TemplatePartition(part.template);
      }
      p.requireOn(parts);
      return p;
    } catch (ParameterException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), option + ": " + e.getMessage());
    }
  }

  /**
   * The K co-runners "of the same kind" must fit on the GPU beside this stage, by the ledger's
   * rules: MPS shares and CU masks sum to at most the GPU (and their reservations fit its memory),
   * MIG co-runners are further instances of the profile in a legal layout, templates fit the NPU's
   * cores, and a whole GPU is held alone.
   */
  private void requireRoomForCoRunners(GpuPartitioning parts, Placement placement) {
    if (coRunners == 0) {
      return;
    }
    String problem = null;
    if (placement instanceof Whole) {
      problem = "a whole GPU is held alone; co-runners need a share, e.g. --mps " + Math.floor(100.0 / (coRunners + 1)) / 100;
    } else if (placement instanceof MpsShare || placement instanceof CuMask) {
      problem = MpsAdmission.strict().check(parts, Collections.nCopies(coRunners + 1, placement))
          .map(v -> "this stage and " + coRunners + " co-runners on the same kind of placement break the GPU's sharing rule: " + v.message())
          .orElse(null);
    } else if (placement instanceof MigSlice || placement instanceof MigSliceMps) {
      MigSlice own = placement instanceof MigSliceMps m ? m.slice() : (MigSlice) placement;
      int beside = instancesBeside(parts, own);
      if (coRunners > beside) {
        problem = "MIG co-runners are further " + own.profile() + " instances, and only " + beside + " fit beside " + own.label() + " on a "
            + parts.gpuType();
      }
    } else if (placement instanceof TemplatePartition t) {
      int cores = parts.template(t.template()).cores();
      if ((coRunners + 1) * cores > parts.npuCores()) {
        problem = (coRunners + 1) + " " + t.template() + " templates need " + (coRunners + 1) * cores + " cores, and a " + parts.gpuType() + " has "
            + parts.npuCores();
      }
    }
    if (problem != null) {
      throw bad("--co-runners", coRunners, problem);
    }
  }

  /** How many more instances of {@code own}'s profile a legal MIG layout holds beside it (first fit over the allowed starts). */
  private static int instancesBeside(GpuPartitioning parts, MigSlice own) {
    List<MigSlice> layout = new java.util.ArrayList<>(List.of(own));
    for (int start : parts.requireMig().profile(own.profile()).allowedStarts()) {
      layout.add(new MigSlice(own.profile(), start));
      if (MigLayout.check(parts.requireMig(), layout).isPresent()) {
        layout.remove(layout.size() - 1);
      }
    }
    return layout.size() - 1;
  }

  /** {@code --mps-processes} processes in {@code slice}, each reserving the stage's memory; the client limit is an error, memory is {@code fits}. */
  private MigSliceMps processes(MigSlice slice, GpuPartitioning parts, long memory) {
    if (mpsProcesses < 1) {
      throw bad("--mps-processes", mpsProcesses, "must be >= 1");
    }
    MigSliceMps p = new MigSliceMps(slice.profile(), slice.start(), mpsProcesses, memory);
    MpsAdmission.strict().check(parts, List.of(p))
        .filter(v -> v.rule() != ShareViolation.Rule.INSTANCE_MEMORY)
        .ifPresent(v -> {
          throw bad("--mps-processes", mpsProcesses, v.message());
        });
    return p;
  }

  /** The analytic tier would time each process as if it had the instance alone: only measured series answer. */
  private void requireMeasuredOrFitted(SharedStage stage) {
    MeasuredShareTable measured = MeasuredShareTable.published();
    if (ShareTimeModel.firstOf(List.of(measured, FittedShareTimeModel.fit(measured.series()))).seconds(stage).isEmpty()) {
      throw bad("--mps-processes", mpsProcesses, "no measured or fitted series times " + stage.model().name() + " at batch " + batch
          + " with " + mpsProcesses + " processes in a MIG instance of a " + stage.type().name()
          + ", and the analytic model does not model processes sharing an instance. Maybe use resnet50, vgg16 or mobilenetv2 with --runtime pytorch-eager (ParvaGPU's) on an A100 80 GB");
    }
  }

  private static MigSlice migSlice(GpuPartitioning parts, String spec) {
    return spec.indexOf('@') < 0 ? new MigSlice(spec, parts.requireMig().profile(spec).allowedStarts().get(0)) : MigSlice.parse("mig", spec);
  }

  /**
   * The memory a stage on {@code p} may use: the instance's for MIG and templates, the card's for
   * the whole GPU, and the card's less one MPS process context for an MPS share (a CU mask has none).
   */
  private static long capacity(GpuPartitioning parts, Placement p) {
    if (p instanceof MpsShare) {
      return parts.memoryBytes() - parts.mpsProcessOverheadBytes();
    }
    if (p instanceof CuMask) {
      return parts.memoryBytes();
    }
    if (p instanceof MigSliceMps m) {
      // each of the n processes has its share of the instance, less its own context
      return m.memoryBytes(parts) / m.processes() - parts.mpsProcessOverheadBytes();
    }
    return p.memoryBytes(parts);
  }

  private ParameterException bad(String option, Object value, String rule) {
    return new ParameterException(spec.commandLine(), option + " = " + value + ": " + rule);
  }
}
