package fsil.eval.protocol;

import fsil.api.Method;
import fsil.api.Params;
import fsil.api.Plugin;
import fsil.data.FeatureSet;

/**
 * An evaluation protocol: an exactly defined way of turning a {@link FeatureSet} into independent units (an
 * episode, an incremental run with one seed) that any capable method can be run on. Its options are its typed
 * {@link #parameters()}; a run may give several values for an option, which makes several settings. A protocol is a
 * plugin: list an implementation (public, with an {@code @Inject} or a public no-argument constructor) in
 * {@code META-INF/services/fsil.eval.protocol.Protocol} and it appears in {@code fsil run --protocol} and
 * {@code fsil protocols}.
 */
public interface Protocol extends Plugin {

    @Override
    default String kind() {
        return "protocol";
    }

    /** Null if the method can take part, otherwise why not (e.g. the capabilities it lacks). */
    String incompatibility(Method method);

    /**
     * Options that change how tasks are grouped and stored, never a number (e.g. {@code episodes-per-unit}); the
     * summary leaves them out of its setting columns.
     */
    default java.util.Set<String> executionOptions() {
        return java.util.Set.of();
    }

    /** A short label of a setting for tables and plots, e.g. {@code 5-way 1-shot Q75 balanced}. */
    String settingLabel(Params options);

    /**
     * Validates the data against the options and prepares the units. Must fail with a clear
     * {@link fsil.api.FsilException} (what is wrong, how to fix it) before any unit runs.
     */
    ProtocolPlan plan(FeatureSet data, Params options, long orderSeed);

}
