package fsil.eval.run;

import fsil.api.Params;
import fsil.api.Plugin;

/**
 * An engine plugin, found by {@link java.util.ServiceLoader} like every other kind (register the class in
 * {@code META-INF/services/fsil.eval.run.EngineProvider}): {@code fsil run --engine ID} uses the provider of that id,
 * with typed parameters from {@code --master URL} (the parameter {@code master}) and {@code --engine-option
 * NAME=VALUE}; {@code fsil engines} lists them. {@code local} is built in.
 */
public interface EngineProvider extends Plugin {

    @Override
    default String kind() {
        return "engine";
    }

    /** An engine for one run, with resolved parameters ({@link #params(java.util.Map)}). */
    Engine create(Params params);
}
