package org.rampa.heuristics.profiles;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.rampa.domain.Invalid;
import org.rampa.domain.LatencyPoint;
import org.rampa.domain.LatencyProfile;
import org.rampa.domain.Layer;
import org.rampa.domain.Model;
import org.rampa.json.InputFiles;
import org.rampa.split.LayerCostTable;

/**
 * A PipeDream profiler output ({@code *.graph.txt}): one line per operator,
 * {@code nodeN -- Module(...) -- forward_compute_time=F, backward_compute_time=B,
 * activation_size=A, parameter_size=P} (times in ms for the profiled minibatch, sizes in bytes; an
 * operator with several outputs lists them as {@code [a; b; c]}, imported as their sum),
 * and one tab-indented line {@code nodeA -- nodeB} per edge.
 *
 * <p><b>Linearisation.</b> The graph is sorted topologically by Kahn's algorithm; among operators
 * ready at the same time the one with the smaller node number comes first (PipeDream numbers
 * operators in the order the tracer met them). Every layer's {@link ProfiledLayer#inputs()} lists its
 * producers, so in {@link #toModel} a tensor that skips over stages is charged at every cut it
 * crosses ({@link Model#cutBytesPerSample}).
 *
 * <p><b>Data loader.</b> Rows whose module is {@code Input} (or {@code Input0}, {@code Input1} ...)
 * are the data loader, not model compute: their times are imported as 0, as PipeDream's own
 * optimizer does; they stay as layers so that the input tensors they produce are shipped to the
 * stages that read them.
 */
public record PipeDreamProfile(String name, List<ProfiledLayer> layers) {

  private static final Pattern METRICS = Pattern.compile(
      "forward_compute_time=([-0-9.eE+]+), backward_compute_time=([-0-9.eE+]+), "
          + "activation_size=(\\[[^\\]]*\\]|[-0-9.eE+]+), parameter_size=([-0-9.eE+]+)");

  public PipeDreamProfile {
    Invalid.requireNonBlank("pipedream.name", name);
    layers = List.copyOf(layers);
    if (layers.isEmpty()) {
      throw Invalid.value("pipedream[" + name + "].layers", "[]", "the profile has no operators", "the file is empty or not a graph.txt");
    }
  }

  /** Reads a profile file (bounded, UTF-8); errors name the file, the line and the field. */
  public static PipeDreamProfile read(Path file) {
    String text = InputFiles.readText(file);
    try {
      return parse(file.getFileName().toString().replace(".graph.txt", ""), new StringReader(text));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
  }

  public static PipeDreamProfile parse(String name, Reader reader) {
    List<String> ids = new ArrayList<>();
    List<String> modules = new ArrayList<>();
    List<double[]> metrics = new ArrayList<>();
    List<String[]> edgeIds = new ArrayList<>();
    try {
      BufferedReader in = new BufferedReader(reader);
      String line;
      int lineNo = 0;
      while ((line = in.readLine()) != null) {
        lineNo++;
        if (line.isBlank()) {
          continue;
        }
        String[] parts = line.trim().split(" -- ");
        String where = "line " + lineNo;
        if (line.startsWith("\t")) {
          if (parts.length != 2) {
            throw Invalid.value(where, line.trim(), "an edge line must read \"nodeA -- nodeB\"");
          }
          edgeIds.add(parts);
          continue;
        }
        if (parts.length < 3) {
          throw Invalid.value(where, line, "a node line must read \"id -- module -- metrics\"",
              "the file is not PipeDream profiler output");
        }
        String metricText = parts[parts.length - 1];
        Matcher m = METRICS.matcher(metricText);
        if (!m.find()) {
          throw Invalid.value(where, metricText, "expected forward_compute_time, backward_compute_time, activation_size, parameter_size");
        }
        ids.add(parts[0]);
        modules.add(String.join(" -- ", java.util.Arrays.asList(parts).subList(1, parts.length - 1)));
        metrics.add(new double[] {
            milliseconds(where, "forward_compute_time", m.group(1)), milliseconds(where, "backward_compute_time", m.group(2)),
            activationBytes(where, m.group(3)), number(where, "parameter_size", m.group(4))});
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read PipeDream profile " + name, e);
    }
    Map<String, Integer> index = Topological.inverse(ids);
    if (index.size() != ids.size()) {
      throw Invalid.value(name + ".nodes", ids, "node ids must be unique");
    }
    List<int[]> edges = new ArrayList<>();
    for (String[] e : edgeIds) {
      Integer a = index.get(e[0]);
      Integer b = index.get(e[1]);
      if (a == null || b == null) {
        throw Invalid.value(name + ".edge", e[0] + " -- " + e[1], "refers to a node without a node line");
      }
      edges.add(new int[] {a, b});
    }
    int[] order = Topological.sort(ids.size(), edges, Topological.indexOrder(ids, Topological.byNumberedId()), name);
    int[] position = new int[ids.size()];
    for (int p = 0; p < order.length; p++) {
      position[order[p]] = p;
    }
    Map<Integer, List<Integer>> inputs = new LinkedHashMap<>();
    for (int[] e : edges) {
      inputs.computeIfAbsent(position[e[1]], k -> new ArrayList<>()).add(position[e[0]]);
    }
    List<ProfiledLayer> layers = new ArrayList<>();
    for (int p = 0; p < order.length; p++) {
      int v = order[p];
      double[] x = metrics.get(v);
      boolean loader = ProfiledLayer.isDataLoader(modules.get(v));
      List<Integer> in = inputs.getOrDefault(p, List.of()).stream().distinct().sorted().toList();
      if (in.isEmpty() && p > 0) {
        in = List.of(Layer.MODEL_INPUT); // a second source (another Input row) reads nothing earlier
      }
      layers.add(new ProfiledLayer(ids.get(v), modules.get(v), loader ? 0 : x[0], loader ? 0 : x[1], Math.round(x[2]), Math.round(x[3]), in));
    }
    return new PipeDreamProfile(name, layers);
  }

  /** An activation size: one number, or "[a; b; c]" for an operator with several outputs (summed). */
  private static double activationBytes(String where, String text) {
    if (!text.startsWith("[")) {
      return number(where, "activation_size", text);
    }
    double sum = 0;
    for (String part : text.substring(1, text.length() - 1).split(";")) {
      if (!part.isBlank()) {
        sum += number(where, "activation_size", part.trim());
      }
    }
    return sum;
  }

  /** A measured time in ms: a number in [0, {@link Invalid#MAX_STEP_TIME}], the bound of every layer time. */
  private static double milliseconds(String where, String field, String text) {
    double ms = number(where, field, text);
    if (ms > Invalid.MAX_STEP_TIME.toMillis()) {
      throw Invalid.value(where + " " + field, text, "must be at most " + Invalid.MAX_STEP_TIME.toMillis() + " ms (one layer)");
    }
    return ms;
  }

  /** A measured value: a finite number >= 0 (the pattern admits "-" or "1e999", which are not). */
  private static double number(String where, String field, String text) {
    double x;
    try {
      x = Double.parseDouble(text);
    } catch (NumberFormatException e) {
      throw Invalid.value(where + " " + field, text, "is not a number");
    }
    if (!Double.isFinite(x) || x < 0) {
      throw Invalid.value(where + " " + field, text, "must be a finite number >= 0");
    }
    return x;
  }

  /**
   * The profile as a model whose layer times are the measurements, attached as a latency profile for
   * GPU type {@code gpuType} at batch 1 (one profiled minibatch counts as one sample): weights are
   * the parameters, the output is the activation.
   */
  public Model toModel(ProfileMode mode, String gpuType) {
    List<Layer> list = new ArrayList<>();
    for (ProfiledLayer l : layers) {
      LatencyProfile measured = LatencyProfile.of(gpuType,
          LatencyPoint.of(1, java.time.Duration.ofNanos(Math.round(l.milliseconds(mode) * 1e6))));
      list.add(Layer.builder()
          .name(l.id() + " " + l.module())
          .flopsPerSample(0)
          .weightBytes(l.parameterBytes())
          .outputBytesPerSample(l.activationBytes())
          .inputs(l.inputs())
          .addProfiles(measured)
          .build());
    }
    return Model.of(name, list);
  }

  /**
   * A cost table in ms for one device kind: layer times as measured in {@code mode}; memory =
   * parameters (adding up) plus the largest activation of the stage; no transfer cost (use
   * {@link #costTable(ProfileMode, String, double)} to charge one).
   */
  public LayerCostTable costTable(ProfileMode mode, String deviceKind) {
    return costTable(mode, deviceKind, Double.POSITIVE_INFINITY);
  }

  /**
   * As {@link #costTable(ProfileMode, String)}, with the cut before layer c costing its crossing
   * activation bytes (skip tensors included) divided by {@code bytesPerMillisecond}; in TRAINING
   * mode twice that, since the gradients travel back the same way (as PipeDream's optimizer counts).
   */
  public LayerCostTable costTable(ProfileMode mode, String deviceKind, double bytesPerMillisecond) {
    if (!(bytesPerMillisecond > 0)) {
      throw Invalid.value("bytesPerMillisecond", bytesPerMillisecond, "must be > 0", "pass Double.POSITIVE_INFINITY for free transfers");
    }
    Model model = toModel(mode, deviceKind);
    List<Double> times = new ArrayList<>();
    List<Long> memory = new ArrayList<>();
    List<Long> peak = new ArrayList<>();
    for (ProfiledLayer l : layers) {
      times.add(l.milliseconds(mode));
      memory.add(l.parameterBytes());
      peak.add(l.activationBytes());
    }
    List<Double> cuts = new ArrayList<>();
    double directions = mode == ProfileMode.TRAINING ? 2 : 1;
    for (int c = 0; c <= layers.size(); c++) {
      cuts.add(Double.isInfinite(bytesPerMillisecond) ? 0.0 : directions * model.cutBytesPerSample(c) / bytesPerMillisecond);
    }
    return new LayerCostTable("ms", Map.of(deviceKind, times), cuts, memory, peak, List.of());
  }
}
