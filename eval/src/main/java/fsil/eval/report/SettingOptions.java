package fsil.eval.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import fsil.api.FsilException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The protocol options of each setting of one or more runs, as {@code config.json} records them: (protocol, setting
 * label) to option name to value, without the options that only group tasks into units. The summary shows them as columns next to the setting's label, so that "accuracy
 * against shots" is a plain column, not a parsed label.
 */
public record SettingOptions(Map<List<String>, Map<String, String>> options) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** config.json of a run directory (written when the run starts). */
    public static final String CONFIG = "config.json";

    public SettingOptions {
        options = Map.copyOf(options);
    }

    public static SettingOptions none() {
        return new SettingOptions(Map.of());
    }

    /** The settings of the run in {@code dir}; none when it has no config.json (a directory of several runs). */
    public static SettingOptions read(Path dir) {
        Path file = dir.resolve(CONFIG);
        if (!Files.isRegularFile(file)) {
            return none();
        }
        JsonNode config;
        try {
            config = JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new FsilException("cannot read " + file + ": " + e.getMessage(), e);
        }
        JsonNode protocol = config == null ? null : config.get("protocol");
        JsonNode settings = config == null ? null : config.get("settings");
        if (protocol == null || !protocol.isTextual() || settings == null || !settings.isArray()) {
            throw new FsilException(file + " is not fsil's run configuration (no protocol or settings)");
        }
        java.util.Set<String> execution = new java.util.HashSet<>();
        config.path("execution_options").forEach(n -> execution.add(n.asText()));
        Map<List<String>, Map<String, String>> out = new LinkedHashMap<>();
        for (JsonNode s : settings) {
            Map<String, String> o = new LinkedHashMap<>();
            JsonNode opts = s.path("options");
            opts.fieldNames().forEachRemaining(name -> {
                if (!execution.contains(name)) {
                    o.put(name, opts.get(name).asText());
                }
            });
            out.put(List.of(protocol.asText(), s.path("label").asText()), o);
        }
        return new SettingOptions(out);
    }

    /** These settings and another run's. */
    public SettingOptions plus(SettingOptions other) {
        Map<List<String>, Map<String, String>> m = new LinkedHashMap<>(options);
        m.putAll(other.options);
        return new SettingOptions(m);
    }

    /** The options of a setting, or an empty map when unknown. */
    public Map<String, String> of(String protocol, String setting) {
        return options.getOrDefault(List.of(protocol, setting), Map.of());
    }
}
