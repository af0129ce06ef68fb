package org.rampa.examples.sim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.ImmutableClusterState;
import org.rampa.domain.Invalid;
import org.rampa.domain.share.MigGeometry;
import org.rampa.domain.share.MigLayout;
import org.rampa.domain.share.MigProfile;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.ShareViolation;

/**
 * The MIG layouts a simulation starts from, GPU by GPU: without them every GPU starts unconfigured,
 * and since no planner configures a layout on a free GPU, no GPU would ever be in MIG mode (so
 * moves could never re-cut one). Parsed from a policy, each layout checked by {@link MigLayout#check}
 * against the GPU type's geometry (the catalog's {@code mig-geometry.csv}) before anything runs.
 *
 * <p>A policy is {@value #NONE_NAME}, {@value #MIG_HEAVY_NAME}, or one entry per GPU type
 * {@code TYPE=PROFILE@START+PROFILE@START...[:FRACTION]}: that layout on the first
 * {@code ceil(FRACTION × n)} of the type's {@code n} GPUs in cluster order (all of them without a
 * fraction). {@value #MIG_HEAVY_NAME} is, on every GPU of every type whose geometry has them, the
 * mixed layout 3g + 2g + 1g + 1g (the 4-memory-slice 3g, the 2-slice 2g, two 1-slice 1g; on an
 * A100-80GB {@code 3g.40gb@4+2g.20gb@0+1g.10gb@2+1g.10gb@3}): every compute slice in an instance,
 * one of each size a re-cut could merge or split.
 */
public final class MigStart {

  public static final String NONE_NAME = "none";
  public static final String MIG_HEAVY_NAME = "mig-heavy";

  /** No layout: every GPU starts unconfigured, as E4 always did. */
  public static final MigStart NONE = new MigStart(NONE_NAME, Map.of());

  private static final String SYNTAX = "TYPE=PROFILE@START+PROFILE@START...[:FRACTION]";

  /** The policy as given ({@value #NONE_NAME}, {@value #MIG_HEAVY_NAME} or the entries), for {@link #toString}. */
  private final String policy;
  private final Map<String, List<MigSlice>> layouts;

  private MigStart(String policy, Map<String, List<MigSlice>> layouts) {
    this.policy = policy;
    this.layouts = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(layouts));
  }

  /**
   * The policy {@code entries} (as {@code field} lists them: one name, or one entry per type) on
   * {@code cluster}; bad input names the field, the value and the rule broken.
   */
  public static MigStart parse(String field, List<String> entries, Cluster cluster) {
    Invalid.requireNonNull(field, entries);
    if (entries.isEmpty()) {
      throw Invalid.value(field, "[]", "name a policy", NONE_NAME + ", " + MIG_HEAVY_NAME + " or " + SYNTAX);
    }
    if (entries.size() == 1 && entries.get(0).equals(NONE_NAME)) {
      return NONE;
    }
    if (entries.size() == 1 && entries.get(0).equals(MIG_HEAVY_NAME)) {
      return migHeavy(cluster);
    }
    Map<String, List<MigSlice>> layouts = new LinkedHashMap<>();
    Set<String> types = new LinkedHashSet<>();
    for (String entry : entries) {
      if (entry.equals(NONE_NAME) || entry.equals(MIG_HEAVY_NAME)) {
        throw Invalid.value(field, entries, "'" + entry + "' is a whole policy and cannot be combined with other entries",
            "--mig-layouts " + entry);
      }
      int eq = entry.indexOf('=');
      if (eq <= 0) {
        throw Invalid.value(field, entry, "must be " + NONE_NAME + ", " + MIG_HEAVY_NAME + " or " + SYNTAX,
            "A100-SXM4-80GB=3g.40gb@4+2g.20gb@0+1g.10gb@2+1g.10gb@3:0.5");
      }
      String type = entry.substring(0, eq);
      if (!types.add(type)) {
        throw Invalid.value(field, entry, "names GPU type " + type + " twice", "one entry per type");
      }
      MigGeometry geometry = geometry(field, entry, type, cluster);
      String rest = entry.substring(eq + 1);
      double fraction = 1;
      int colon = rest.lastIndexOf(':');
      if (colon >= 0) {
        fraction = fraction(field, entry, rest.substring(colon + 1));
        rest = rest.substring(0, colon);
      }
      List<MigSlice> layout = slices(field, rest);
      Optional<ShareViolation> broken = MigLayout.check(geometry, layout);
      if (broken.isPresent()) {
        throw Invalid.value(field, entry, "is not a legal MIG layout on " + geometry.name() + ": " + broken.get(),
            "profiles and starts from mig-geometry.csv, instances not overlapping");
      }
      List<Gpu> ofType = cluster.gpus().stream().filter(g -> g.type().equals(type)).toList();
      int n = (int) Math.ceil(fraction * ofType.size() - 1e-9);
      for (Gpu g : ofType.subList(0, n)) {
        layouts.put(g.id(), layout);
      }
    }
    return new MigStart(String.join(",", entries), layouts);
  }

  /** {@value #MIG_HEAVY_NAME} on {@code cluster}; refused when no GPU type of the cluster has a geometry for it. */
  public static MigStart migHeavy(Cluster cluster) {
    Map<String, List<MigSlice>> layouts = new LinkedHashMap<>();
    for (Gpu g : cluster.gpus()) {
      mixedLayout(cluster.typeOf(g.id())).ifPresent(l -> layouts.put(g.id(), l));
    }
    if (layouts.isEmpty()) {
      throw Invalid.value("--mig-layouts", MIG_HEAVY_NAME, "no GPU type of the cluster has a MIG geometry with 3g, 2g and 1g profiles",
          "a cluster with A100 or H100 GPUs, or --mig-layouts none");
    }
    return new MigStart(MIG_HEAVY_NAME, layouts);
  }

  /** 3g + 2g + 1g + 1g, each at its {@link MigLayout#bestStart}, when the type's geometry has those profiles and they fit. */
  private static Optional<List<MigSlice>> mixedLayout(GpuType type) {
    Optional<MigGeometry> geometry = type.partitioning().mig();
    if (geometry.isEmpty()) {
      return Optional.empty();
    }
    MigLayout layout = MigLayout.empty(geometry.get());
    List<MigSlice> slices = new ArrayList<>();
    for (int[] shape : new int[][] {{3, 4}, {2, 2}, {1, 1}, {1, 1}}) {
      Optional<MigProfile> p = geometry.get().profiles().stream()
          .filter(x -> x.computeSlices() == shape[0] && x.memorySlices() == shape[1]).findFirst();
      if (p.isEmpty()) {
        return Optional.empty();
      }
      int start = layout.bestStart(p.get());
      if (start < 0) {
        return Optional.empty();
      }
      layout = layout.with(p.get().name(), start);
      slices.add(new MigSlice(p.get().name(), start));
    }
    return Optional.of(List.copyOf(slices));
  }

  private static MigGeometry geometry(String field, String entry, String type, Cluster cluster) {
    Optional<GpuType> t = cluster.gpuTypes().stream().filter(x -> x.name().equals(type)).findFirst();
    if (t.isEmpty()) {
      throw Invalid.value(field, entry, "GPU type " + type + " is not in the cluster",
          "one of " + cluster.gpuTypes().stream().map(GpuType::name).toList());
    }
    return t.get().partitioning().mig().orElseThrow(() -> Invalid.value(field, entry, "GPU type " + type + " has no MIG geometry",
        "one of " + cluster.gpuTypes().stream().filter(x -> x.partitioning().mig().isPresent()).map(GpuType::name).toList()));
  }

  private static double fraction(String field, String entry, String text) {
    double f;
    try {
      f = Double.parseDouble(text);
    } catch (NumberFormatException e) {
      throw Invalid.value(field, entry, "fraction '" + text + "' is not a number", "':0.5' for half of the type's GPUs");
    }
    if (!(f > 0 && f <= 1)) {
      throw Invalid.value(field, entry, "fraction " + text + " must lie in (0, 1]", "':0.5' for half of the type's GPUs");
    }
    return f;
  }

  private static List<MigSlice> slices(String field, String text) {
    List<MigSlice> out = new ArrayList<>();
    for (String part : text.split("\\+", -1)) {
      out.add(MigSlice.parse(field, part));
    }
    return List.copyOf(out);
  }

  /** GPU id → its layout, for every GPU that starts in MIG mode. */
  public Map<String, List<MigSlice>> layouts() {
    return layouts;
  }

  /**
   * {@code empty} (a state nobody holds anything in) with these layouts, built in one step so the
   * state's own check verifies every GPU's layout once more.
   */
  public ClusterState apply(ClusterState empty) {
    if (layouts.isEmpty()) {
      return empty;
    }
    if (!empty.allocations().isEmpty() || !empty.migLayouts().isEmpty()) {
      throw Invalid.value("migStart.state", "version " + empty.version(), "a start layout is set on an empty, unconfigured state only");
    }
    return ImmutableClusterState.builder().from(empty).migLayouts(layouts).build();
  }

  /** "mig-heavy (16 GPUs in MIG mode)". */
  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%s (%d GPUs in MIG mode)", policy, layouts.size());
  }
}
