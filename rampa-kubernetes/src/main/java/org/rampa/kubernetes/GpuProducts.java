package org.rampa.kubernetes;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.rampa.catalog.GpuCatalog;
import org.rampa.domain.Invalid;

/**
 * Maps the value of GPU feature discovery's {@code nvidia.com/gpu.product} label (NVML's device
 * name with spaces turned into dashes) to a type of RAMPA's GPU catalog. Only names listed here, or
 * given by the operator, are mapped: a product that is not (an H100 NVL, a GPU under time-slicing
 * whose label ends in {@code -SHARED}, a "single"-strategy MIG label ending in {@code -MIG-...}) is
 * reported by name and its node left out, never matched to a look-alike.
 */
public final class GpuProducts {

  private static final Map<String, String> KNOWN = Map.ofEntries(
      Map.entry("Tesla-T4", "T4"),
      Map.entry("Tesla-V100-PCIE-16GB", "V100-PCIe-16GB"),
      Map.entry("Tesla-V100-PCIE-32GB", "V100-PCIe-32GB"),
      Map.entry("Tesla-V100-SXM2-16GB", "V100-SXM2-16GB"),
      Map.entry("Tesla-V100-SXM2-32GB", "V100-SXM2-32GB"),
      Map.entry("NVIDIA-A10", "A10"),
      Map.entry("NVIDIA-A10G", "A10G"),
      Map.entry("NVIDIA-L4", "L4"),
      Map.entry("NVIDIA-L40S", "L40S"),
      Map.entry("NVIDIA-A100-PCIE-40GB", "A100-PCIe-40GB"),
      Map.entry("NVIDIA-A100-SXM4-40GB", "A100-SXM4-40GB"),
      Map.entry("NVIDIA-A100-80GB-PCIe", "A100-PCIe-80GB"),
      Map.entry("NVIDIA-A100-SXM4-80GB", "A100-SXM4-80GB"),
      Map.entry("NVIDIA-H100-PCIe", "H100-PCIe-80GB"),
      Map.entry("NVIDIA-H100-80GB-HBM3", "H100-SXM5-80GB"),
      Map.entry("NVIDIA-H200", "H200-SXM-141GB"),
      Map.entry("NVIDIA-B200", "B200-HGX-180GB"));

  private final Map<String, String> products;

  private GpuProducts(Map<String, String> products) {
    this.products = Map.copyOf(products);
  }

  /** The built-in table. */
  public static GpuProducts standard() {
    return new GpuProducts(KNOWN);
  }

  /**
   * The built-in table plus {@code extra} (label value → catalog type), which wins over it.
   *
   * @throws IllegalArgumentException naming the product when a type is not in the catalog
   */
  public GpuProducts with(Map<String, String> extra) {
    Map<String, String> all = new LinkedHashMap<>(products);
    extra.forEach((product, type) -> {
      if (!GpuCatalog.standard().ids().contains(type)) {
        throw Invalid.value("gpuProduct[" + product + "]", type, "is not a type of RAMPA's GPU catalog",
            "use one of " + GpuCatalog.standard().ids());
      }
      all.put(product, type);
    });
    return new GpuProducts(all);
  }

  /** The catalog type of {@code product}, or empty for a product this table does not know. */
  public Optional<String> catalogType(String product) {
    return Optional.ofNullable(products.get(product));
  }
}
