package org.rampa.domain.share;

import org.rampa.domain.Invalid;

/** A hard NPU partition template: a name ("vir04"), its AI cores and its memory. */
public record PartitionTemplate(String name, int cores, long memoryBytes) {

  public PartitionTemplate {
    Invalid.requireNonBlank("template.name", name);
    if (cores < 1) {
      throw Invalid.value("template[" + name + "].cores", cores, "must be >= 1");
    }
    if (memoryBytes <= 0) {
      throw Invalid.value("template[" + name + "].memoryBytes", memoryBytes, "must be > 0");
    }
  }
}
