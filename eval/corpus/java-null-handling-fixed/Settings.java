import java.util.Map;

public class Settings {
    private final Map<String, String> values;

    public Settings(Map<String, String> values) {
        this.values = values;
    }

    public int timeoutSeconds() {
        String raw = values.get("timeout");
        if (raw == null || raw.isBlank()) {
            return 30;
        }
        return Integer.parseInt(raw.trim());
    }
}
