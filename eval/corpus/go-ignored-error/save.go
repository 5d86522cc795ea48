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
	data, _ := json.Marshal(notes)
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	f.Write(data)
	return nil
}
