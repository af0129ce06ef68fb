/** JSON in and out for clusters, models, requests, states, plans, results and problem documents. */
@ValueStyle
package org.rampa.json;

import org.rampa.domain.ValueStyle;
