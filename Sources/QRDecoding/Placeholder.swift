// QRDecoding
