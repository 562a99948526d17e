package fsil.api;

import java.util.List;
import java.util.Map;

/**
 * What every plugin kind shares: a stable id, one line of description and typed parameters. Methods, datasets,
 * backbones, protocols, metrics and engines are all written {@code id[key=value,...]} on the command line and in run
 * files ({@link PluginRef}), listed with their parameters by {@code fsil <kind>s}, and resolved through
 * {@link #params(Map)}, which rejects unknown names and bad values before any work. No plugin parses its own options.
 */
public interface Plugin {

    /** Stable lower-case id (letters, digits, '-', '_'), as the command line writes it, e.g. {@code ppca}. */
    String id();

    /** One line saying what the plugin is. */
    String description();

    /** Declared parameters with defaults and documentation (none by default). */
    default List<Param<?>> parameters() {
        return List.of();
    }

    /** What the plugin is, for messages, e.g. {@code "method"} or {@code "backbone"}. */
    default String kind() {
        return "plugin";
    }

    /** All defaults. */
    default Params defaults() {
        return Params.defaults(kind() + " " + id(), parameters());
    }

    /** Defaults overridden by textual values; unknown names or bad values throw {@link InvalidParameterException}. */
    default Params params(Map<String, String> values) {
        return Params.resolve(kind() + " " + id(), parameters(), values);
    }
}
