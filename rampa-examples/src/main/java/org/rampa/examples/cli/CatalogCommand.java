package org.rampa.examples.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.ModelCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.domain.GpuType;
import org.rampa.domain.Model;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigProfile;
import org.rampa.domain.share.PartitionTemplate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "catalog", mixinStandardHelpOptions = true,
    description = "List the catalog's GPU types and models with their key numbers.")
final class CatalogCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    GpuCatalog gpus = GpuCatalog.standard();
    out.printf("%-16s %8s %8s %9s %6s %6s %9s  %s%n", "GPU type", "TFLOP/s", "mem GiB", "mem GB/s", "eta_c", "eta_m", "overhead", "notes");
    for (String id : gpus.ids()) {
      GpuCatalog.Entry e = gpus.entry(id);
      GpuType t = e.type();
      out.printf("%-16s %8.1f %8.0f %9.0f %6.3f %6.3f %7.1fus  %s%n", id, t.peakFlopsPerSecond() / 1e12,
          t.memoryBytes() / (double) (1L << 30), t.memoryBandwidthBytesPerSecond() / 1e9, t.computeEfficiency(),
          t.memoryEfficiency(), t.layerOverhead().toNanos() / 1e3, e.confidenceNotes().contains("UNVERIFIED") ? "has UNVERIFIED values" : "");
    }
    out.println();
    out.printf("%-14s %7s %10s %12s %11s  %s%n", "model", "layers", "params", "GFLOP/sample", "weights GB", "runtime");
    for (String name : ModelCatalog.names()) {
      Model m = ModelCatalog.model(name);
      out.printf("%-14s %7d %9.2fB %12.2f %11.2f  %s%n", name, m.size(), ModelCatalog.parameters(m) / 1e9,
          m.totalFlopsPerSample() / 1e9, m.totalWeightBytes() / 1e9, m.runtime());
    }
    out.println("(transformers: prefill at their default sequence length; see ModelCatalog.prefill/decode)");
    out.println("(runtime: whose measurements time the model; the catalog's times are TensorRT's (MLPerf). ParvaGPU's tables time");
    out.println(" resnet50, vgg16, mobilenetv2 and its other CNNs under pytorch-eager, MuxServe's LLaMA under muxserve:");
    out.println(" predict --runtime, or \"runtime\" in a model's JSON)");
    out.println();
    printSharing(out);
    return 0;
  }

  /** How each type can be shared: MPS, MIG profiles with SMs, memory and starts, CU counts, NPU templates. */
  private static void printSharing(PrintWriter out) {
    out.printf("%-16s %4s %5s  %s%n", "sharing", "MPS", "CUs", "MIG profiles (SMs of card, GiB, allowed starts) / NPU templates (cores, GiB)");
    SharingCatalog sharing = SharingCatalog.standard();
    for (String id : sharing.gpuTypes()) {
      GpuPartitioning p = sharing.partitioning(id);
      StringBuilder parts = new StringBuilder();
      p.mig().ifPresent(g -> {
        parts.append(g.name()).append(":");
        for (MigProfile m : g.profiles()) {
          parts.append(String.format(" %s (%d/%d, %.1f, %s)%s", m.name(), m.smCount(), g.smCount(), m.memoryBytes() / (double) (1L << 30),
              m.allowedStarts(), (m.confidence() + m.source()).contains("UNVERIFIED") ? "*" : ""));
        }
      });
      for (PartitionTemplate t : p.templates()) {
        parts.append(String.format(" %s (%d/%d, %.0f)", t.name(), t.cores(), p.npuCores(), t.memoryBytes() / (double) (1L << 30)));
      }
      out.printf("%-16s %4s %5s  %s%n", id, p.mps() ? "yes" : "no", p.computeUnits() > 0 ? String.valueOf(p.computeUnits()) : "-",
          parts.length() > 0 ? parts.toString().trim() : "-");
    }
    out.println("(* UNVERIFIED in the MIG geometry table; NPU types and their templates are modelled, not measured)");
  }
}
