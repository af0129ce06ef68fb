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

  /** A device count, possibly negative or too long for an int: checked and reported as a count. */
  private static final String COUNT = "[-+]?\\d+";

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
      description = "N identical devices, N in [1, " + SplitProblem.MAX_DEVICES + "] (catalog models: " + DEFAULT_DEVICE
          + "), or an ordered list of at most " + SplitProblem.MAX_DEVICES + " catalog GPU types (--model only).")
  String devices;

  @Option(names = "--transfers", defaultValue = "overlapped", paramLabel = "none|overlapped|serial",
      description = "How transfers enter the period. Default: ${DEFAULT-VALUE} (serial for --tarnawski unless given).")
  String transfers;

  @Override
  public Integer call() {
    TransferMode mode = transferMode();
    if (training && source.pipedream == null) {
      throw Invalid.value("--training", true, "applies only to --pipedream profiles", "drop --training");
    }
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
    boolean identical = devices.trim().matches(COUNT);
    List<String> kinds = identical ? java.util.Collections.nCopies(count(), DEFAULT_DEVICE) : deviceList();
    Model model = source.model.endsWith(".json") ? RampaJson.read(Path.of(source.model), Model.class) : ModelCatalog.model(source.model);
    GpuCatalog catalog = GpuCatalog.standard();
    List<GpuType> types = kinds.stream().distinct().map(catalog::type).toList();
    // one server: the first device's scale-up link (or PCIe) carries the transfers
    var link = catalog.entry(kinds.get(0)).intraNodeLink();
    LayerCostTable seconds = LayerCostTable.forModel(model, 1, types, link, PerformanceModel.defaults());
    LayerCostTable millis = inMilliseconds(seconds);
    List<Long> caps = kinds.stream().map(k -> catalog.type(k).memoryBytes()).toList();
    return identical
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
    String text = devices.trim();
    if (!text.matches(COUNT)) {
      throw Invalid.value("--devices", devices, "must be a device count here", "give a number such as --devices 4");
    }
    // compared as a long so that 99999999999 is reported as too large, not as unparsable
    long n = text.length() > 12 ? Long.MAX_VALUE : Long.parseLong(text);
    if (n < 1 || n > SplitProblem.MAX_DEVICES) {
      throw Invalid.value("--devices", text, "must lie in [1, " + SplitProblem.MAX_DEVICES + "]");
    }
    return (int) n;
  }

  private List<String> deviceList() {
    List<String> kinds = List.of(devices.split(",", -1)).stream().map(String::trim).toList();
    if (kinds.size() > SplitProblem.MAX_DEVICES) {
      throw Invalid.value("--devices", kinds.size() + " types", "must list at most " + SplitProblem.MAX_DEVICES + " devices");
    }
    for (String k : kinds) {
      if (k.isEmpty()) {
        throw Invalid.value("--devices", devices, "lists an empty GPU type", "separate types by single commas: A10,T4");
      }
      if (!GpuCatalog.standard().ids().contains(k)) {
        throw Invalid.value("--devices", k, "is not a catalog GPU type", "choose from " + GpuCatalog.standard().ids());
      }
    }
    return kinds;
  }

  private TransferMode transferMode() {
    try {
      return TransferMode.valueOf(transfers.toUpperCase(java.util.Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw Invalid.value("--transfers", transfers, "must be none, overlapped or serial");
    }
  }
}
