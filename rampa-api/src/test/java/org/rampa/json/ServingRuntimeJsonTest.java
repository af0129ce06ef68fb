package org.rampa.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.rampa.catalog.ModelCatalog;
import org.rampa.domain.Model;
import org.rampa.domain.ServingRuntime;

/** A model's serving runtime in JSON: left out when it is the default (so older documents read and write as before), kept otherwise. */
class ServingRuntimeJsonTest {

  @Test
  void theDefaultRuntimeIsLeftOutAndAnotherRoundTrips() {
    Model tensorRt = ModelCatalog.model("resnet50");
    assertThat(tensorRt.runtime()).isEqualTo(ServingRuntime.TENSORRT);
    String json = RampaJson.write(tensorRt);
    assertThat(json).doesNotContain("runtime");
    assertThat(RampaJson.read(json, Model.class)).isEqualTo(tensorRt);

    Model eager = tensorRt.servedBy(ServingRuntime.PYTORCH_EAGER);
    String eagerJson = RampaJson.write(eager);
    assertThat(eagerJson).contains("\"runtime\" : \"pytorch-eager\"");
    assertThat(RampaJson.read(eagerJson, Model.class)).isEqualTo(eager).isNotEqualTo(tensorRt);
  }

  @Test
  void anUnknownRuntimeIsRefusedNamingFieldValueAndTheKnownOnes() {
    String json = RampaJson.write(ModelCatalog.model("resnet50").servedBy(ServingRuntime.MUXSERVE)).replace("\"muxserve\"", "\"onnx\"");
    assertThatThrownBy(() -> RampaJson.read(json, Model.class))
        .hasMessageContaining("runtime = onnx")
        .hasMessageContaining("tensorrt, pytorch-eager, muxserve");
  }
}
