package notes

import (
	"encoding/json"
	"os"
)

type Note struct {
	Title string `json:"title"`
	Body  string `json:"body"`
}

func Save(path string, notes []Note) error {
	data, err := json.Marshal(notes)
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
