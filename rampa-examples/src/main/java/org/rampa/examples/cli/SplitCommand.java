package org.rampa.examples.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.ModelCatalog;
import org.rampa.domain.GpuType;
import org.rampa.domain.Invalid;
import org.rampa.domain.Model;
import org.rampa.heuristics.profiles.PipeDreamProfile;
import org.rampa.heuristics.profiles.ProfileMode;
import org.rampa.heuristics.profiles.TarnawskiLayerGraph;
import org.rampa.heuristics.split.PeriodSplitters;
import org.rampa.json.RampaJson;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.TransferMode;
import org.rampa.split.LayerCostTable;
import org.rampa.split.SplitProblem;
import org.rampa.split.SplitResult;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "split", mixinStandardHelpOptions = true,
    description = {"Minimum-period contiguous split of a model over n identical devices or a device list.",
        "Prints one JSON object: period (in the input profile's time unit; milliseconds for catalog models)",
        "and stages, a list of [from, to) layer index pairs."})
final class SplitCommand implements Callable<Integer> {

  /** Catalog models are split over this type when --devices gives only a count. */
  static final String DEFAULT_DEVICE = "A100-SXM4-80GB";

  @Spec
  CommandSpec spec;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Source source;

  static final class Source {
    @Option(names = "--model", paramLabel = "NAME|FILE.json", description = "A catalog model name or a model JSON file.")
    String model;

    @Option(names = "--pipedream", paramLabel = "FILE", description = "A PipeDream profile (*.graph.txt).")
    Path pipedream;

    @Option(names = "--tarnawski", paramLabel = "FILE", description = "A Tarnawski et al. layer graph (JSON); its memory cap applies.")
    Path tarnawski;
  }

  @Option(names = "--training", description = "With --pipedream: forward+backward times (default: forward only).")
  boolean training;

  @Option(names = "--devices", required = true, paramLabel = "N|TYPE,TYPE,...",
      description = "N identical devices (catalog models: " + DEFAULT_DEVICE + "), or an ordered list of catalog GPU types (--model only).")
  String devices;

  @Option(names = "--transfers", defaultValue = "overlapped", paramLabel = "none|overlapped|serial",
      description = "How transfers enter the period. Default: ${DEFAULT-VALUE} (serial for --tarnawski unless given).")
  String transfers;

  @Override
  public Integer call() {
    TransferMode mode = transferMode();
    SplitProblem problem;
    if (source.model != null) {
      problem = modelProblem(mode);
    } else if (source.pipedream != null) {
      LayerCostTable table = PipeDreamProfile.read(source.pipedream).costTable(training ? ProfileMode.TRAINING : ProfileMode.INFERENCE, "device");
      problem = SplitProblem.identical(table, "device", count(), mode);
    } else {
      TarnawskiLayerGraph graph = TarnawskiLayerGraph.read(source.tarnawski);
      SplitProblem own = graph.splitProblem(count());
      boolean explicitMode = spec.commandLine().getParseResult().hasMatchedOption("--transfers");
      problem = explicitMode ? new SplitProblem(own.table(), own.devices(), own.allowUnusedDevices(), mode, own.memoryCaps()) : own;
    }
    SplitResult result = PeriodSplitters.exact().split(problem);
    Map<String, Object> json = new LinkedHashMap<>();
    if (!result.feasible()) {
      json.put("feasible", false);
      json.put("reason", result.reason());
    } else {
      json.put("period", result.period());
      json.put("unit", problem.table().timeUnit());
      List<int[]> stages = new ArrayList<>(result.ranges());
      json.put("stages", stages);
    }
    spec.commandLine().getOut().println(RampaJson.write(json));
    return 0;
  }

  private SplitProblem modelProblem(TransferMode mode) {
    Model model = source.model.endsWith(".json") ? RampaJson.read(Path.of(source.model), Model.class) : ModelCatalog.model(source.model);
    GpuCatalog catalog = GpuCatalog.standard();
    List<String> kinds = devices.matches("\\d+") ? java.util.Collections.nCopies(count(), DEFAULT_DEVICE) : List.of(devices.split(","));
    List<GpuType> types = kinds.stream().distinct().map(catalog::type).toList();
    // one server: the first device's scale-up link (or PCIe) carries the transfers
    var link = catalog.entry(kinds.get(0)).intraNodeLink();
    LayerCostTable seconds = LayerCostTable.forModel(model, 1, types, link, PerformanceModel.defaults());
    LayerCostTable millis = inMilliseconds(seconds);
    List<Long> caps = kinds.stream().map(k -> catalog.type(k).memoryBytes()).toList();
    return devices.matches("\\d+")
        ? SplitProblem.identical(millis, DEFAULT_DEVICE, count(), mode).withMemoryCap(caps.get(0))
        : SplitProblem.onDevices(millis, kinds, mode).withMemoryCaps(caps);
  }

  private static LayerCostTable inMilliseconds(LayerCostTable t) {
    Map<String, List<Double>> times = new LinkedHashMap<>();
    t.layerTimes().forEach((k, v) -> times.put(k, v.stream().map(x -> x * 1e3).toList()));
    return new LayerCostTable("ms", times, t.cutTimes().stream().map(x -> x * 1e3).toList(), t.layerMemoryBytes(),
        t.layerPeakMemoryBytes(), List.of());
  }

  private int count() {
    if (!devices.matches("\\d+")) {
      throw Invalid.value("--devices", devices, "must be a device count here", "give a number such as --devices 4");
    }
    int n = Integer.parseInt(devices);
    if (n < 1) {
      throw Invalid.value("--devices", n, "must be >= 1");
    }
    return n;
  }

  private TransferMode transferMode() {
    try {
      return TransferMode.valueOf(transfers.toUpperCase(java.util.Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw Invalid.value("--transfers", transfers, "must be none, overlapped or serial");
    }
  }
}
