-- refused: string.dump
return string.dump(function() end)
