import java.io.IOException;
import java.io.ObjectInputStream;
import java.util.Map;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

public class PrefsServlet extends HttpServlet {
    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        try (ObjectInputStream in = new ObjectInputStream(req.getInputStream())) {
            @SuppressWarnings("unchecked")
            Map<String, String> prefs = (Map<String, String>) in.readObject();
            req.getSession().setAttribute("prefs", prefs);
            resp.setStatus(204);
        } catch (ClassNotFoundException e) {
            resp.sendError(400);
        }
    }
}
