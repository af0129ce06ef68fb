/**
 * Built-in data: real GPU types with efficiencies calibrated on published measurements, real models
 * as layer chains, preset clusters built from them, and how each GPU type can be shared (MIG
 * geometry, MPS, CU counts, a modelled NPU). Everything here is read from the bundled
 * resources or derived from them; nothing here plans or predicts.
 */
package org.rampa.catalog;
