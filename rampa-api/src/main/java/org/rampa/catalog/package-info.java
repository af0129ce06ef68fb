/**
 * Built-in data: real GPU types with efficiencies calibrated on published measurements, real models
 * as layer chains, and preset clusters built from them. Everything here is read from the bundled
 * resources or derived from them; nothing here plans or predicts.
 */
package org.rampa.catalog;
