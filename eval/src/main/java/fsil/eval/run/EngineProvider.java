package fsil.eval.run;

import java.util.Map;

/**
 * A pluggable engine, found by {@link java.util.ServiceLoader} (register the class in
 * {@code META-INF/services/fsil.eval.run.EngineProvider}): {@code fsil run --engine NAME} uses the provider of that
 * name. {@code local} is built in.
 */
public interface EngineProvider {

    /** The name {@code --engine} takes. */
    String name();

    /** One line for help texts. */
    String description();

    /**
     * An engine for one run.
     *
     * @param options engine options by name ({@code master} for {@code --master}, others from
     *                {@code --engine-option NAME=VALUE}); unknown names are errors
     */
    Engine create(Map<String, String> options);
}
